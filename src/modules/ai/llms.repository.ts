// SQL of LLM connections, agents' and templates' references to them, and their call counts.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import { LLM_PROVIDERS } from '../llm/llm.tables.js';

export const llmFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('llms.name'), value, path),
  },
  uuid: { type: 'uuid', column: 'llms.uuid' },
  provider: { type: 'enum', column: 'llms.provider', values: [...LLM_PROVIDERS] },
  is_default: { type: 'boolean', column: 'llms.is_default' },
};
const llmFilter: FilterSpec = { name: 'LLM filter', fields: llmFilterFields };

export const llmSort: SortSpec = {
  fields: {
    created_at: 'llms.created_at',
    updated_at: 'llms.updated_at',
    name: 'llms.name',
    uuid: 'llms.uuid',
  },
  tiebreaker: 'llms.uuid',
};

export async function selectLlms(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(llmFilter, filter);
  let base = db.selectFrom('llms').where('llms.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy(orderByClause(page, llmSort)).limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function selectLlm(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('llms')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** Makes `uuid` the team's only default connection. */
export async function makeDefault(db: Executor, teamId: number, uuid: string) {
  await db
    .updateTable('llms')
    .set({ is_default: false })
    .where('team_id', '=', teamId)
    .where('is_default', '=', true)
    .where('uuid', '!=', uuid)
    .execute();
  await db
    .updateTable('llms')
    .set({ is_default: true })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .execute();
}

/** After the default was deleted: the oldest connection left becomes the default. */
export async function promoteOldest(db: Executor, teamId: number) {
  const oldest = await db
    .selectFrom('llms')
    .select('uuid')
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .orderBy('uuid')
    .limit(1)
    .executeTakeFirst();
  if (oldest) await makeDefault(db, teamId, oldest.uuid);
}

/** Templates and agents naming a deleted connection fall back to the default. */
export async function clearReferences(db: Executor, teamId: number, uuid: string) {
  await db
    .updateTable('ai_templates')
    .set({ llm_uuid: null })
    .where('team_id', '=', teamId)
    .where('llm_uuid', '=', uuid)
    .execute();
  await db
    .updateTable('ai_templates')
    .set({ validation_llm_uuid: null })
    .where('team_id', '=', teamId)
    .where('validation_llm_uuid', '=', uuid)
    .execute();
  await db
    .updateTable('ai_agents')
    .set({ classification_llm_uuid: null })
    .where('team_id', '=', teamId)
    .where('classification_llm_uuid', '=', uuid)
    .execute();
}

/** Per connection, its logged calls in [from, to] and this month. */
export async function selectLlmCallCounts(
  db: Executor,
  teamId: number,
  uuids: string[],
  period: { from: string; to: string },
  monthStart: Date,
) {
  return db
    .selectFrom('llm_logs')
    .select([
      'llm_uuid',
      sql<number>`count(*) filter (where created_at between ${period.from}::timestamptz and ${period.to}::timestamptz)`.as(
        'calls',
      ),
      sql<number>`count(*) filter (where status = 'succeeded' and created_at between ${period.from}::timestamptz and ${period.to}::timestamptz)`.as(
        'succeeded',
      ),
      sql<number>`coalesce(sum(tokens_in) filter (where created_at between ${period.from}::timestamptz and ${period.to}::timestamptz), 0)`.as(
        'tokens_in',
      ),
      sql<number>`coalesce(sum(tokens_out) filter (where created_at between ${period.from}::timestamptz and ${period.to}::timestamptz), 0)`.as(
        'tokens_out',
      ),
      sql<number>`count(*) filter (where created_at >= ${monthStart})`.as('this_month_calls'),
    ])
    .where('team_id', '=', teamId)
    .where('llm_uuid', 'in', uuids)
    .groupBy('llm_uuid')
    .execute();
}
