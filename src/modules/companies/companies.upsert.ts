// The create-or-update statement behind POST /leads/api/companies: one statement for the whole batch.
// Each input row is matched against the team's companies (ln_id, then linkedin slug, then domain, then
// name when no identifier conflicts); matched companies are updated, the rest inserted with
// ON CONFLICT DO NOTHING so a concurrent writer of the same identifier never yields two companies.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { UPSERT_VALUE_COLUMNS } from './companies.fields.js';
import type { NormalizedCompany } from './companies.input.js';

export type UpsertRow = NormalizedCompany & { uuid: string; ord: number };

export type UpsertContext = {
  teamId: number;
  userId: number | null;
  initialStageUuid: string;
  listUuids: string[];
  dataSourceUuid: string | null;
};

const VALUE_COLUMNS = Object.keys(UPSERT_VALUE_COLUMNS);
const ref = (alias: string, column: string) => sql.raw(`${alias}.${column}`);

const RECORD_COLUMNS = sql.raw(
  [
    'uuid uuid',
    'ord integer',
    'ln_id bigint',
    'linkedin text',
    'domain text',
    'name_key text',
    ...VALUE_COLUMNS.map((column) => `${column} ${UPSERT_VALUE_COLUMNS[column]}`),
    'tags uuid[]',
    'custom_fields jsonb',
    'pipeline_stage_uuid uuid',
  ].join(', '),
);

/** An identifier is filled in on a matched company only when it has none and no other company has it. */
function fillIdentifier(column: 'ln_id' | 'linkedin' | 'domain', teamId: number) {
  return sql`${sql.raw(column)} = coalesce(c.${sql.raw(column)}, case when not exists (
    select 1 from companies o where o.team_id = ${teamId} and o.${sql.raw(column)} = s.${sql.raw(column)}
  ) then s.${sql.raw(column)} end)`;
}

/** Distinct union of two uuid arrays, keeping first-seen order. */
const unionUuids = (left: unknown, right: unknown) =>
  sql`array(select x from unnest(${left} || ${right}) with ordinality u(x, n) group by x order by min(n))`;

/**
 * Runs the statement for `rows`; returns input row uuid → resulting company uuid. A row missing from
 * the result lost a race (a concurrent transaction created or deleted its match); run it again.
 */
/**
 * The company deduplication rule as a lateral subquery over an input row aliased `i` (columns ln_id,
 * linkedin, domain, name_key): LinkedIn id, then slug, then domain, then a name that no identifier both
 * sides have contradicts; the best match (uuid, is_blacklisted) or no row.
 */
export function bestCompanyMatch(teamId: number) {
  return sql`
    select c.uuid, c.is_blacklisted from companies c
    where c.team_id = ${teamId}
      and (c.ln_id = i.ln_id or c.linkedin = i.linkedin or c.domain = i.domain
        or (lower(c.name) = i.name_key
          and (c.ln_id is null or i.ln_id is null or c.ln_id = i.ln_id)
          and (c.linkedin is null or i.linkedin is null or c.linkedin = i.linkedin)
          and (c.domain is null or i.domain is null or c.domain = i.domain)))
    order by case when c.ln_id = i.ln_id then 0 when c.linkedin = i.linkedin then 1
                  when c.domain = i.domain then 2 else 3 end, c.created_at, c.uuid
    limit 1`;
}

export async function upsertCompanies(
  trx: Executor,
  context: UpsertContext,
  rows: UpsertRow[],
): Promise<Map<string, string>> {
  if (rows.length === 0) return new Map();
  const input = JSON.stringify(
    rows.map((row) => ({
      uuid: row.uuid,
      ord: row.ord,
      ln_id: row.ln_id,
      linkedin: row.linkedin,
      domain: row.domain,
      name_key: row.name_key,
      ...row.values,
      tags: row.tags,
      custom_fields: row.custom_fields,
      pipeline_stage_uuid: row.pipeline_stage_uuid,
    })),
  );
  const { teamId } = context;
  const lists = sql`${context.listUuids}::uuid[]`;
  const dataSource = sql`${context.dataSourceUuid}::uuid`;
  const result = await sql<{ input_uuid: string; company_uuid: string | null }>`
    with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as i(${RECORD_COLUMNS})
    ), matched as (
      select i.uuid as input_uuid, m.uuid as company_uuid
      from input i
      left join lateral (${bestCompanyMatch(teamId)}) m on true
    ), sources as (
      -- Several rows may match one stored company; the last of the request wins.
      select distinct on (m.company_uuid) m.company_uuid, i.*
      from matched m join input i on i.uuid = m.input_uuid
      where m.company_uuid is not null
      order by m.company_uuid, i.ord desc
    ), updated as (
      update companies c set
        ${sql.join(
          VALUE_COLUMNS.map(
            (column) => sql`${sql.raw(column)} = coalesce(${ref('s', column)}, ${ref('c', column)})`,
          ),
          sql`, `,
        )},
        ${fillIdentifier('ln_id', teamId)}, ${fillIdentifier('linkedin', teamId)}, ${fillIdentifier('domain', teamId)},
        lists = ${unionUuids(sql`c.lists`, lists)},
        tags = ${unionUuids(sql`c.tags`, sql`coalesce(s.tags, '{}')`)},
        custom_fields = jsonb_strip_nulls(c.custom_fields || coalesce(s.custom_fields, '{}')),
        pipeline_stage_uuid = coalesce(s.pipeline_stage_uuid, c.pipeline_stage_uuid),
        data_source_uuid = coalesce(c.data_source_uuid, ${dataSource}),
        updated_at = now()
      from sources s
      where c.team_id = ${teamId} and c.uuid = s.company_uuid
      returning c.uuid
    ), inserted as (
      insert into companies (team_id, uuid, user_id, data_source_uuid, pipeline_stage_uuid, ln_id, linkedin,
                             domain, ${sql.raw(VALUE_COLUMNS.join(', '))}, lists, tags, custom_fields)
      select ${teamId}, i.uuid, ${context.userId}::bigint, ${dataSource},
             coalesce(i.pipeline_stage_uuid, ${context.initialStageUuid}::uuid), i.ln_id, i.linkedin, i.domain,
             ${sql.join(
               VALUE_COLUMNS.map((column) => ref('i', column)),
               sql`, `,
             )},
             ${lists}, coalesce(i.tags, '{}'), jsonb_strip_nulls(coalesce(i.custom_fields, '{}'))
      from input i join matched m on m.input_uuid = i.uuid
      where m.company_uuid is null
      on conflict do nothing
      returning uuid
    )
    select m.input_uuid, coalesce(u.uuid, ins.uuid) as company_uuid
    from matched m
    left join updated u on u.uuid = m.company_uuid
    left join inserted ins on ins.uuid = m.input_uuid
  `.execute(trx);
  const resolved = new Map<string, string>();
  for (const row of result.rows) if (row.company_uuid) resolved.set(row.input_uuid, row.company_uuid);
  return resolved;
}
