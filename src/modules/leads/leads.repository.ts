import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { IDENTIFIER_FIELDS, STORED_COLUMN_TYPES } from './lead-fields.js';
import type { MatchKeys } from './leads.input.js';
import type { LeadRow } from './leads.present.js';

/** Identifiers that `a` and `b` both set to different values (then they are different people). */
const noConflictingIdentifier = sql.raw(
  IDENTIFIER_FIELDS.map((key) => `(k.${key} is null or l.${key} is null or l.${key} = k.${key})`).join(
    ' and ',
  ),
);

/**
 * Finds, for each set of keys, the team's contact it deduplicates to: the spec's seven keys in order
 * (ln_member_id, ln_id, sn_id, linkedin nickname, work_email, personal_email, name + company_name),
 * first match wins. Name + company only matches a contact that no identifier contradicts. Each key is
 * one probe of its unique index. Returns ord → contact.
 */
export async function matchLeads(
  db: Executor,
  teamId: number,
  keys: Array<MatchKeys & { ord: number }>,
): Promise<Map<number, LeadRow>> {
  if (keys.length === 0) return new Map();
  const result = await sql<LeadRow & { match_ord: number }>`
    select k.ord as match_ord, m.*
    from jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(
      ord integer, ln_member_id bigint, ln_id text, sn_id text, linkedin text, work_email text,
      personal_email text, name text, company_name text
    )
    cross join lateral (
      select l.* from (
        select 1 as key_rank, l.uuid from leads l where l.team_id = ${teamId} and l.ln_member_id = k.ln_member_id
        union all
        select 2, l.uuid from leads l where l.team_id = ${teamId} and l.ln_id = k.ln_id
        union all
        select 3, l.uuid from leads l where l.team_id = ${teamId} and l.sn_id = k.sn_id
        union all
        select 4, l.uuid from leads l where l.team_id = ${teamId} and l.linkedin = k.linkedin
        union all
        select 5, l.uuid from leads l where l.team_id = ${teamId} and l.work_email = k.work_email
        union all
        select 6, l.uuid from leads l where l.team_id = ${teamId} and l.personal_email = k.personal_email
        union all
        (select 7, l.uuid from leads l
          where l.team_id = ${teamId} and lower(l.name) = lower(k.name)
            and lower(l.company_name) = lower(k.company_name) and ${noConflictingIdentifier}
          order by l.created_at, l.uuid limit 1)
      ) x
      join leads l on l.team_id = ${teamId} and l.uuid = x.uuid
      order by x.key_rank
      limit 1
    ) m
  `.execute(db);
  return new Map(result.rows.map(({ match_ord, ...row }) => [match_ord, row as LeadRow]));
}

export async function selectLead(db: Executor, teamId: number, uuid: string): Promise<LeadRow | undefined> {
  return db
    .selectFrom('leads')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export async function lockLead(db: Executor, teamId: number, uuid: string): Promise<LeadRow | undefined> {
  return db
    .selectFrom('leads')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .forUpdate()
    .executeTakeFirst();
}

/** Writes `changes` (column → value; jsonb values are serialised here) to one contact and returns it. */
export async function updateLeadColumns(
  db: Executor,
  teamId: number,
  uuid: string,
  changes: Record<string, unknown>,
): Promise<LeadRow> {
  const assignments = Object.entries(changes).map(([column, value]) => {
    const type = STORED_COLUMN_TYPES[column];
    if (!type) throw new Error(`Unknown contact column ${column}`);
    const json = type === 'jsonb' && value !== null ? JSON.stringify(value) : value;
    return sql`${sql.ref(column)} = ${json}::${sql.raw(type)}`;
  });
  const result = await sql<LeadRow>`
    update leads set ${sql.join([...assignments, sql`updated_at = now()`])}
    where team_id = ${teamId} and uuid = ${uuid}
    returning *
  `.execute(db);
  return result.rows[0]!;
}

/** The team's company with this domain (the oldest, should several share it). */
/**
 * What the e-mail channel learnt of a contact's address: `bounced` (a hard bounce) or `unsubscribed`
 * (the contact's unsubscribe link).
 */
export async function setLeadEmailStatus(
  db: Executor,
  teamId: number,
  uuid: string,
  status: 'bounced' | 'unsubscribed',
  at: Date,
): Promise<void> {
  await db
    .updateTable('leads')
    .set({ email_status: status, updated_at: at })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .execute();
}

export async function selectCompanyByDomain(db: Executor, teamId: number, domain: string) {
  return db
    .selectFrom('companies')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('domain', '=', domain)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

export async function listExists(db: Executor, teamId: number, uuid: string): Promise<boolean> {
  const row = await db
    .selectFrom('lists')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  return row !== undefined;
}

export async function leadStageExists(db: Executor, teamId: number, uuid: string): Promise<boolean> {
  const row = await db
    .selectFrom('pipeline_stages')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .where('object', '=', 'lead')
    .executeTakeFirst();
  return row !== undefined;
}
