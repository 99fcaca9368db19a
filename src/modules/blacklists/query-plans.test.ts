// Query plans of the set-based statements of tags, pipeline stages, custom fields, notes and blacklists:
// each must find its rows through an index led by team_id, never by scanning the tables. The statements
// are captured as the repositories run them (in a rolled-back transaction) and then EXPLAINed with
// sequential scans disabled, so the test fails when no suitable index exists.
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import type { Executor } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import { newId } from '../../lib/ids.js';
import { customFieldsFilterField } from '../custom-fields/custom-fields.filter.js';
import { stripCustomFieldBatch } from '../custom-fields/custom-fields.jobs.js';
import { deleteNotesOf } from '../notes/notes.repository.js';
import { selectInitialStageUuid } from '../pipeline-stages/pipeline-stages.defaults.js';
import { moveRecordsToStage } from '../pipeline-stages/pipeline-stages.repository.js';
import { stripTagBatch } from '../tags/tags.jobs.js';
import { selectTagCounts } from '../tags/tags.repository.js';
import {
  flagCompaniesMatchingEntry,
  flagLeadsMatchingEntry,
  refreshLeadBlacklistFlags,
  unflagLeadsOfRemovedEntry,
} from './blacklist-match.js';

let ctx: TestContext;
let user: TestUser;
const TAG = newId();
const FIELD = newId();

class Rollback extends Error {}

beforeAll(async () => {
  ctx = await createTestContext();
  user = await ctx.createUser();
  const list = await makeList(ctx.db, user.teamId);
  const stage = await selectInitialStageUuid(ctx.db, user.teamId, 'lead');
  // Enough rows that the planner's statistics mean something: a few carry the tag, the field value,
  // the blacklisted e-mail or name.
  await sql`
    insert into leads (team_id, uuid, list_uuid, pipeline_stage_uuid, name, company_name, work_email, linkedin,
      tags, custom_fields)
    select ${user.teamId}, leadflow_uuid_v7(), ${list.uuid}, ${stage}, 'Person ' || i, 'Company ' || (i % 500),
      'p' || i || '@example.com', 'person-' || i,
      case when i % 100 = 0 then array[${TAG}::uuid] else '{}' end,
      case when i % 100 = 0 then jsonb_build_object(${FIELD}::text, 'v' || i) else jsonb_build_object('other', i) end
    from generate_series(1, 5000) i
  `.execute(ctx.db);
  await sql`
    insert into companies (team_id, uuid, name, domain, custom_fields)
    select ${user.teamId}, leadflow_uuid_v7(), 'Company ' || i, 'c' || i || '.com', '{}'
    from generate_series(1, 2000) i
  `.execute(ctx.db);
  await sql`
    insert into notes (team_id, uuid, object, object_uuid, note)
    select ${user.teamId}, leadflow_uuid_v7(), 'lead', l.uuid, 'note' from leads l where l.team_id = ${user.teamId}
  `.execute(ctx.db);
  // A large blacklist: checking one contact must probe it, not read it all.
  await sql`
    insert into leads_blacklist (team_id, uuid, email, name, company_name, linkedin)
    select ${user.teamId}, leadflow_uuid_v7(),
      case when i % 4 = 0 then 'blocked' || i || '@example.com' end,
      case when i % 4 = 1 then 'blocked person ' || i end,
      case when i % 4 in (1, 2) then 'blocked company ' || i end,
      case when i % 4 = 3 then 'blocked-' || i end
    from generate_series(1, 5000) i
  `.execute(ctx.db);
  await sql`analyze leads; analyze companies; analyze notes; analyze leads_blacklist`.execute(ctx.db);
});
afterAll(() => ctx.close());

/** Runs `work` in a rolled-back transaction and returns the plans of the statements it sent. */
async function plansOf(work: (db: Executor) => Promise<unknown>): Promise<string[]> {
  const queries: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const capturing = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: ctx.database.pool }),
    log: (event) => {
      const text = event.query.sql;
      if (event.level === 'query' && !/^(begin|commit|rollback)\b/i.test(text)) {
        queries.push({ sql: text, parameters: event.query.parameters });
      }
    },
  });
  await capturing
    .transaction()
    .execute(async (trx) => {
      await work(trx);
      throw new Rollback();
    })
    .catch((error) => {
      if (!(error instanceof Rollback)) throw error;
    });
  const client = await ctx.database.pool.connect();
  try {
    const plans: string[] = [];
    await client.query('begin');
    // On Citus (npm run test:citus) the shards plan on the workers: the setting goes with the statements.
    if (process.env.LEADFLOW_TEST_CITUS)
      await client.query("set local citus.propagate_set_commands = 'local'");
    await client.query('set local enable_seqscan = off');
    for (const query of queries) {
      const result = await client.query(`explain ${query.sql}`, query.parameters as unknown[]);
      plans.push(result.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n'));
    }
    return plans;
  } finally {
    await client.query('rollback');
    client.release();
  }
}

function expectIndexes(plan: string | undefined, indexes: string[]) {
  expect(plan).toBeDefined();
  for (const index of indexes) expect(plan, plan).toContain(index);
  expect(plan, plan).not.toMatch(/Seq Scan/);
}

describe('query plans', () => {
  it('tags: removal and counts go through the (team_id, tags) GIN indexes', async () => {
    const [leadsRemoval] = await plansOf((db) => stripTagBatch(db, 'leads', user.teamId, TAG));
    expectIndexes(leadsRemoval, ['leads_team_tags_idx']);
    const [companiesRemoval] = await plansOf((db) => stripTagBatch(db, 'companies', user.teamId, TAG));
    expectIndexes(companiesRemoval, ['companies_team_tags_idx']);
    await ctx.db.insertInto('tags').values({ team_id: user.teamId, uuid: TAG, name: 'Plan' }).execute();
    const [counts] = await plansOf((db) =>
      selectTagCounts(db, user.teamId, [TAG], ['leads_count', 'companies_count']),
    );
    expectIndexes(counts, ['leads_team_tags_idx', 'companies_team_tags_idx']);
  });

  it('custom fields: deleting a field finds its values through the record-keys GIN index', async () => {
    const [leads] = await plansOf((db) => stripCustomFieldBatch(db, 'leads', user.teamId, FIELD));
    expectIndexes(leads, ['leads_team_custom_field_keys_idx']);
    const [companies] = await plansOf((db) => stripCustomFieldBatch(db, 'companies', user.teamId, FIELD));
    expectIndexes(companies, ['companies_team_custom_field_keys_idx']);
  });

  it('pipeline stages: moving records uses the (team_id, stage) indexes', async () => {
    const [leads] = await plansOf((db) => moveRecordsToStage(db, user.teamId, 'lead', newId(), newId()));
    expectIndexes(leads, ['leads_team_stage_idx']);
    const [companies] = await plansOf((db) =>
      moveRecordsToStage(db, user.teamId, 'company', newId(), newId()),
    );
    expectIndexes(companies, ['companies_team_stage_idx']);
  });

  it('notes: purging the notes of deleted contacts uses the (team_id, object_uuid) index', async () => {
    const [plan] = await plansOf((db) => deleteNotesOf(db, user.teamId, 'lead', [newId(), newId()]));
    expectIndexes(plan, ['notes_team_object_idx']);
  });

  it('blacklists: flagging probes the records\u2019 identifier indexes', async () => {
    const none = { name: null, company_name: null, linkedin: null, ln_id: null, email: null };
    const [email] = await plansOf((db) =>
      flagLeadsMatchingEntry(db, user.teamId, { ...none, email: 'p7@example.com' }),
    );
    expectIndexes(email, ['leads_team_work_email_key', 'leads_team_personal_email_key']);
    const [linkedin] = await plansOf((db) =>
      flagLeadsMatchingEntry(db, user.teamId, { ...none, linkedin: 'person-7' }),
    );
    expectIndexes(linkedin, ['leads_team_linkedin_key']);
    const [company] = await plansOf((db) =>
      flagLeadsMatchingEntry(db, user.teamId, { ...none, company_name: 'company 7' }),
    );
    expect(company).toMatch(/leads_team_company_name_idx|leads_team_name_company_idx/);
    expect(company).not.toMatch(/Seq Scan/);
    const [domain] = await plansOf((db) =>
      flagCompaniesMatchingEntry(db, user.teamId, {
        name: null,
        linkedin: null,
        ln_id: null,
        domain: 'c7.com',
      }),
    );
    expectIndexes(domain, ['companies_team_domain_key']);
  });

  it('blacklists: checking a record against the team\u2019s entries probes the entry indexes', async () => {
    const lead = await ctx.db
      .selectFrom('leads')
      .select('uuid')
      .where('team_id', '=', user.teamId)
      .limit(1)
      .executeTakeFirstOrThrow();
    const [refresh] = await plansOf((db) =>
      refreshLeadBlacklistFlags(db, user.teamId, { uuids: [lead.uuid] }),
    );
    expectIndexes(refresh, [
      'leads_pkey',
      'leads_blacklist_team_email_idx',
      'leads_blacklist_team_linkedin_idx',
    ]);
    const none = { name: null, company_name: null, linkedin: null, ln_id: null };
    const [unflag] = await plansOf((db) =>
      unflagLeadsOfRemovedEntry(db, user.teamId, { ...none, email: 'p7@example.com' }),
    );
    // Either the flagged-contacts partial index or the e-mail keys find the contacts, both led by team_id.
    expectIndexes(unflag, ['leads_blacklist_team_email_idx']);
    expect(unflag).toMatch(/leads_team_blacklisted_idx|leads_team_work_email_key/);
  });
});

describe('custom field filters', () => {
  it('serve equality and "is set" from the GIN indexes', async () => {
    const definitions = [{ uuid: FIELD, name: 'industry', type: 'string' as const, order: 1 }];
    const spec: FilterSpec = {
      name: 'contact filter',
      fields: { custom_fields: customFieldsFilterField(definitions, 'l.custom_fields') },
    };
    const plan = async (filter: unknown) => {
      const where = compileFilter(spec, { custom_fields: { industry: filter } })!;
      const [explained] = await plansOf((db) =>
        db
          .selectFrom('leads as l')
          .select('l.uuid')
          .where('l.team_id', '=', user.teamId)
          .where(where)
          .execute(),
      );
      return explained;
    };
    expectIndexes(await plan('v100'), ['leads_team_custom_fields_idx']);
    expectIndexes(await plan(['v100', 'v200']), ['leads_team_custom_fields_idx']);
    expectIndexes(await plan('is_not_null'), ['leads_team_custom_field_keys_idx']);
  });
});
