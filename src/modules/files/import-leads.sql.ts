// The statements of a contact import chunk. Each takes the rows of a chunk (or round) at once: rows
// travel as one JSON parameter or as arrays, never one statement per row.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { leadBlacklistMatch } from '../blacklists/blacklist-match.js';
import { COLUMN_SQL_TYPES, JSON_FIELDS, WRITABLE_COLUMNS } from '../leads/lead-fields.js';
import { type LeadColumns, type MatchKeys, withNameParts } from '../leads/leads.input.js';

export type StagedLead = {
  row: number;
  uuid: string;
  columns: LeadColumns;
  keys: MatchKeys;
  tags: string[];
  customFields: Record<string, unknown>;
  domain?: string;
};

/** Whether the team has blacklist entries and companies: without them two checks can be skipped. */
export async function teamFacts(db: Executor, teamId: number) {
  const result = await sql<{ blacklist: boolean; companies: boolean }>`
    select exists (select 1 from leads_blacklist where team_id = ${teamId}) as blacklist,
      exists (select 1 from companies where team_id = ${teamId}) as companies
  `.execute(db);
  return result.rows[0]!;
}

/** Rows whose own values match a blacklist entry of the team (the shared rule, one statement). */
export async function blacklistedRows(
  db: Executor,
  teamId: number,
  rows: StagedLead[],
): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const payload = JSON.stringify(
    rows.map(({ row, columns }) => ({
      ord: row,
      linkedin: columns.linkedin ?? null,
      ln_id: columns.ln_id ?? null,
      work_email: columns.work_email ?? null,
      personal_email: columns.personal_email ?? null,
      name: columns.name ?? null,
      company_name: columns.company_name ?? null,
    })),
  );
  // A join, not exists (...): Citus refuses a correlated subquery beside a set-returning function.
  const result = await sql<{ ord: number }>`
    select distinct k.ord
    from jsonb_to_recordset(${payload}::jsonb)
      as k(ord integer, linkedin text, ln_id text, work_email text, personal_email text, name text, company_name text)
    join leads_blacklist b on b.team_id = ${teamId} and ${leadBlacklistMatch('k')}
  `.execute(db);
  return new Set(result.rows.map((r) => r.ord));
}

/**
 * Rows whose name + company some contact of the team already has (one index probe per row). With the
 * identifiers, which the insert's unique indexes check, these are the only rows that can match.
 */
export async function rowsMatchingByName(
  db: Executor,
  teamId: number,
  rows: StagedLead[],
): Promise<Set<number>> {
  const named = rows.filter((row) => row.keys.name !== null && row.keys.company_name !== null);
  if (named.length === 0) return new Set();
  const result = await sql<{ i: number }>`
    select k.i
    from unnest(${named.map((row) => row.keys.name)}::text[], ${named.map((row) => row.keys.company_name)}::text[])
      with ordinality k(name, company, i)
    cross join lateral (
      select 1 from leads l
      where l.team_id = ${teamId} and lower(l.name) = lower(k.name) and lower(l.company_name) = lower(k.company)
      limit 1
    ) m
  `.execute(db);
  return new Set(result.rows.map((hit) => named[hit.i - 1]!.row));
}

const INSERT_COLUMNS = WRITABLE_COLUMNS.filter(
  (column) => !(JSON_FIELDS as readonly string[]).includes(column) && column !== 'linkedin_status',
);

/**
 * Inserts contacts in one statement and returns the uuids inserted. A row with an identifier some
 * contact already has is skipped by ON CONFLICT (the unique indexes are the check), and the caller
 * matches it instead. The rows were checked against the blacklist already, so their flag is false.
 */
export async function insertLeadRows(
  db: Executor,
  target: {
    teamId: number;
    userId: number | null;
    listUuid: string;
    stageUuid: string;
    dataSourceUuid: string | null;
    /** The team has companies, so a domain may link the contact to one. */
    companies: boolean;
  },
  rows: StagedLead[],
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  // Only the columns the chunk sets: less JSON to send and parse.
  const rowColumns = rows.map((row) => withNameParts(row.columns));
  const present = new Set(rowColumns.flatMap((columns) => Object.keys(columns)));
  const columns = INSERT_COLUMNS.filter((column) => present.has(column));
  const byDomain = target.companies && rows.some((row) => row.domain);
  const payload = JSON.stringify(
    rows.map((row, index) => ({
      ...rowColumns[index],
      ord: row.row,
      uuid: row.uuid,
      tags: row.tags,
      custom_fields: row.customFields,
      ...(row.domain ? { company_domain: row.domain } : {}),
    })),
  );
  const recordset = sql.raw(
    [
      'ord integer',
      'uuid uuid',
      ...columns.map((column) => `${column} ${COLUMN_SQL_TYPES[column]}`),
      'linkedin_status text',
      'tags uuid[]',
      'custom_fields jsonb',
      'company_domain text',
    ].join(', '),
  );
  const names = sql.raw(columns.map((column) => `, ${column}`).join(''));
  const values = sql.raw(columns.map((column) => `, i.${column}`).join(''));
  const company = byDomain
    ? sql`(select c.uuid from companies c where c.team_id = ${target.teamId} and c.domain = i.company_domain
        order by c.created_at limit 1)`
    : sql`null::uuid`;
  const result = await sql<{ uuid: string }>`
    insert into leads (
      team_id, uuid, user_id, list_uuid, pipeline_stage_uuid, data_source_uuid, company_uuid${names},
      linkedin_status, tags, custom_fields, is_blacklisted
    )
    select
      ${target.teamId}, i.uuid, ${target.userId}::bigint, ${target.listUuid}::uuid, ${target.stageUuid}::uuid,
      ${target.dataSourceUuid}::uuid, ${company}${values}, coalesce(i.linkedin_status, 'need_enrichment'),
      coalesce(i.tags, '{}'), coalesce(i.custom_fields, '{}'), false
    from json_to_recordset(${payload}::json) as i(${recordset})
    order by i.ord
    on conflict do nothing
    returning uuid
  `.execute(db);
  return new Set(result.rows.map((row) => row.uuid));
}

/** The team's company per domain (the oldest, as contact linking picks it). */
export async function companiesByDomain(db: Executor, teamId: number, domains: string[]) {
  if (domains.length === 0) return new Map<string, string>();
  const result = await sql<{ domain: string; uuid: string }>`
    select distinct on (c.domain) c.domain, c.uuid from companies c
    where c.team_id = ${teamId} and c.domain = any(${[...new Set(domains)]}::text[])
    order by c.domain, c.created_at
  `.execute(db);
  return new Map(result.rows.map((row) => [row.domain, row.uuid]));
}

const IDENTIFIERS = ['ln_member_id', 'ln_id', 'sn_id', 'linkedin', 'work_email', 'personal_email'] as const;

/**
 * For contacts about to get new identifiers: which identifier another contact already holds
 * (contact uuid → key), so the update would break a uniqueness rule.
 */
export async function identifierClashes(
  db: Executor,
  teamId: number,
  changes: Array<{ uuid: string; changes: Record<string, unknown> }>,
): Promise<Map<string, string>> {
  const probes = changes
    .filter((change) => IDENTIFIERS.some((key) => change.changes[key] != null))
    .map((change) => ({
      uuid: change.uuid,
      ...Object.fromEntries(IDENTIFIERS.map((key) => [key, change.changes[key] ?? null])),
    }));
  if (probes.length === 0) return new Map();
  const branches = IDENTIFIERS.map(
    (key) => sql`select p.uuid, ${key}::text as key from p
      where exists (select 1 from leads l where l.team_id = ${teamId} and l.${sql.raw(key)} = p.${sql.raw(key)}
        and l.uuid <> p.uuid)`,
  );
  const result = await sql<{ uuid: string; key: string }>`
    with p as (
      select * from jsonb_to_recordset(${JSON.stringify(probes)}::jsonb) as r(
        uuid uuid, ln_member_id bigint, ln_id text, sn_id text, linkedin text, work_email text, personal_email text)
    )
    ${sql.join(branches, sql` union all `)}
  `.execute(db);
  return new Map(result.rows.map((row) => [row.uuid, row.key]));
}

const CHANGE_TYPES: Record<string, string> = {
  ...COLUMN_SQL_TYPES,
  list_uuid: 'uuid',
  company_uuid: 'uuid',
  tags: 'uuid[]',
  custom_fields: 'jsonb',
};

/**
 * Writes each contact's changed columns in one statement. jsonb_populate_record turns a row's
 * {column: value} object into typed values, so every row may change a different set of columns.
 */
export async function writeLeadChanges(
  db: Executor,
  teamId: number,
  changes: Array<{ uuid: string; changes: Record<string, unknown> }>,
) {
  const columns = [...new Set(changes.flatMap((change) => Object.keys(change.changes)))];
  const payload = JSON.stringify(changes.map((change) => ({ uuid: change.uuid, c: change.changes })));
  const assignments = columns.map((column) => {
    if (!CHANGE_TYPES[column]) throw new Error(`Unknown contact column ${column}`);
    const ref = sql.raw(column);
    return sql`${ref} = case when s.c ? ${column} then (s.r).${ref} else l.${ref} end`;
  });
  await sql`
    update leads l set ${sql.join(assignments)}, updated_at = now()
    from (
      select x.uuid, x.c, jsonb_populate_record(null::leads, x.c) as r
      from jsonb_to_recordset(${payload}::jsonb) as x(uuid uuid, c jsonb)
    ) s
    where l.team_id = ${teamId} and l.uuid = s.uuid
  `.execute(db);
}
