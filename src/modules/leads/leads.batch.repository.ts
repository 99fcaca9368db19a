// Set-based writes of many contacts at once, for the API's bulk create and the CSV import: one
// statement per batch, rows travelling as one JSON parameter, never one statement per row.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { leadBlacklistedSql } from '../blacklists/blacklist-match.js';
import { COLUMN_SQL_TYPES, IDENTIFIER_FIELDS, STORED_COLUMN_TYPES, WRITABLE_COLUMNS } from './lead-fields.js';
import type { LeadColumns } from './leads.input.js';
import type { LeadRow } from './leads.present.js';

export type InsertLead = {
  ord: number;
  uuid: string;
  columns: LeadColumns;
  tags: string[];
  customFields: Record<string, unknown>;
  /** Links the contact to the team's company with this domain. */
  domain?: string;
};

export type InsertTarget = {
  teamId: number;
  userId: number | null;
  listUuid: string;
  stageUuid: string;
  dataSourceUuid?: string | null;
};

export type InsertOptions<R extends 'rows' | 'uuids'> = {
  returning: R;
  /**
   * check: each row's blacklist flag is computed inline against the team's entries; false: the caller
   * checked the rows already (the import does, for a whole chunk at once).
   */
  blacklist: 'check' | false;
  /** The team has companies, so a domain may link the contact to one (false skips the lookup). */
  companies?: boolean;
};

/**
 * Inserts many contacts in one statement - for the API and the CSV import alike - with rows travelling
 * as one JSON parameter. Contacts that collide with an existing contact - or with an earlier row of
 * the same batch - on a deduplication index are skipped (`on conflict do nothing`); the caller finds out
 * which by what is returned. The blacklist flag and the company found by domain are computed inline, so
 * no row is written twice.
 */
export async function insertLeadRows(
  db: Executor,
  target: InsertTarget,
  rows: InsertLead[],
  options: InsertOptions<'rows'>,
): Promise<LeadRow[]>;
export async function insertLeadRows(
  db: Executor,
  target: InsertTarget,
  rows: InsertLead[],
  options: InsertOptions<'uuids'>,
): Promise<Array<{ uuid: string }>>;
export async function insertLeadRows(
  db: Executor,
  target: InsertTarget,
  rows: InsertLead[],
  options: InsertOptions<'rows' | 'uuids'>,
): Promise<Array<{ uuid: string }>> {
  if (rows.length === 0) return [];
  // Only the columns the rows set (less JSON to send and parse); the blacklist check reads them all.
  const present = new Set(rows.flatMap((row) => Object.keys(row.columns)));
  const columns = WRITABLE_COLUMNS.filter(
    (column) => column !== 'linkedin_status' && (options.blacklist === 'check' || present.has(column)),
  );
  const byDomain = (options.companies ?? true) && rows.some((row) => row.domain);
  const payload = JSON.stringify(
    rows.map((row) => ({
      ...row.columns,
      ord: row.ord,
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
  const blacklisted = options.blacklist === 'check' ? leadBlacklistedSql('i', target.teamId) : sql`false`;
  const result = await sql<LeadRow>`
    insert into leads (
      team_id, uuid, user_id, list_uuid, pipeline_stage_uuid, data_source_uuid, company_uuid${names},
      linkedin_status, tags, custom_fields, is_blacklisted
    )
    select
      ${target.teamId}, i.uuid, ${target.userId}::bigint, ${target.listUuid}::uuid, ${target.stageUuid}::uuid,
      ${target.dataSourceUuid ?? null}::uuid, ${company}${values}, coalesce(i.linkedin_status, 'need_enrichment'),
      coalesce(i.tags, '{}'), coalesce(i.custom_fields, '{}'), ${blacklisted}
    from json_to_recordset(${payload}::json) as i(${recordset})
    order by i.ord
    on conflict do nothing
    returning ${options.returning === 'rows' ? sql`*` : sql`uuid`}
  `.execute(db);
  return result.rows;
}

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
    .filter((change) => IDENTIFIER_FIELDS.some((key) => change.changes[key] != null))
    .map((change) => ({
      uuid: change.uuid,
      ...Object.fromEntries(IDENTIFIER_FIELDS.map((key) => [key, change.changes[key] ?? null])),
    }));
  if (probes.length === 0) return new Map();
  const branches = IDENTIFIER_FIELDS.map(
    (key) => sql`select p.uuid, ${key}::text as key from p
      where exists (select 1 from leads l where l.team_id = ${teamId} and l.${sql.raw(key)} = p.${sql.raw(key)}
        and l.uuid <> p.uuid)`,
  );
  const result = await sql<{ uuid: string; key: string }>`
    with p as (
      select * from jsonb_to_recordset(${JSON.stringify(probes)}::jsonb) as r(
        uuid uuid, ${sql.raw(IDENTIFIER_FIELDS.map((key) => `${key} ${COLUMN_SQL_TYPES[key]}`).join(', '))})
    )
    ${sql.join(branches, sql` union all `)}
  `.execute(db);
  return new Map(result.rows.map((row) => [row.uuid, row.key]));
}

/**
 * Writes each contact's changed columns in one statement. jsonb_populate_record turns a row's
 * {column: value} object into typed values, so every row may change a different set of columns.
 */
export async function updateLeadRows(
  db: Executor,
  teamId: number,
  changes: Array<{ uuid: string; changes: Record<string, unknown> }>,
) {
  const columns = [...new Set(changes.flatMap((change) => Object.keys(change.changes)))];
  const payload = JSON.stringify(changes.map((change) => ({ uuid: change.uuid, c: change.changes })));
  const assignments = columns.map((column) => {
    if (!STORED_COLUMN_TYPES[column]) throw new Error(`Unknown contact column ${column}`);
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
