import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { caseInsensitiveField, compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';

/**
 * Tag uuids for tag names, creating the missing tags (names are unique per team, case-insensitively).
 * Returns lower-cased name → uuid. Used where clients send tag names (create/upsert, CSV import).
 */
export async function upsertTagsByName(
  db: Executor,
  teamId: number,
  names: string[],
): Promise<Map<string, string>> {
  const unique = [
    ...new Map(
      names
        .map((n) => n.trim())
        .filter(Boolean)
        .map((n) => [n.toLowerCase(), n]),
    ).values(),
  ];
  if (unique.length === 0) return new Map();
  const rows = await sql<{ uuid: string; name: string }>`
    with wanted (name) as (select unnest(${unique}::text[])),
    inserted as (
      insert into tags (team_id, uuid, name)
      select ${teamId}, ${sql.raw('leadflow_uuid_v7()')}, w.name from wanted w
      on conflict (team_id, lower(name)) do nothing
      returning uuid, name
    )
    select uuid, name from inserted
    union all
    select t.uuid, t.name from tags t join wanted w on lower(t.name) = lower(w.name) where t.team_id = ${teamId}
  `.execute(db);
  return new Map(rows.rows.map((row) => [row.name.toLowerCase(), row.uuid]));
}

/** The subset of `uuids` that are tags of the team (to reject foreign or unknown tag uuids). */
export async function selectExistingTagUuids(
  db: Executor,
  teamId: number,
  uuids: string[],
): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const rows = await db
    .selectFrom('tags')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', 'in', uuids)
    .execute();
  return new Set(rows.map((row) => row.uuid));
}

export const tagFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('tags.name'), value, path),
  },
  uuid: { type: 'uuid', column: 'tags.uuid' },
  name: caseInsensitiveField('tags.name', 'Name equals (case-insensitive)'),
  color: { type: 'string', column: 'tags.color', normalize: (value) => value.trim().toLowerCase() },
  created_at: { type: 'datetime', column: 'tags.created_at' },
  updated_at: { type: 'datetime', column: 'tags.updated_at' },
};
const tagFilter: FilterSpec = { name: 'tag filter', fields: tagFilterFields };

export const tagSort: SortSpec = {
  fields: {
    created_at: 'tags.created_at',
    updated_at: 'tags.updated_at',
    name: 'tags.name',
    uuid: 'tags.uuid',
  },
  tiebreaker: 'tags.uuid',
};

export async function selectTags(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(tagFilter, filter);
  let base = db.selectFrom('tags').where('tags.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy(orderByClause(page, tagSort)).limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectTag(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('tags')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export async function selectTagByName(db: Executor, teamId: number, name: string) {
  return db
    .selectFrom('tags')
    .selectAll()
    .where('team_id', '=', teamId)
    .where(sql<SqlBool>`lower(name) = lower(${name})`)
    .executeTakeFirst();
}

/** Inserts the tag; undefined when the team already has a tag of that name (any case). */
export async function insertTag(
  db: Executor,
  tag: { team_id: number; uuid: string; name: string; color: string | null },
) {
  return db
    .insertInto('tags')
    .values({ team_id: tag.team_id, uuid: tag.uuid, name: tag.name, color: tag.color })
    .onConflict((oc) => oc.expression(sql`team_id, lower(name)`).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateTag(
  db: Executor,
  teamId: number,
  uuid: string,
  changes: { name?: string; color?: string | null },
) {
  return db
    .updateTable('tags')
    .set({ name: changes.name, color: changes.color, updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteTag(db: Executor, teamId: number, uuid: string) {
  return db
    .deleteFrom('tags')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returning('uuid')
    .executeTakeFirst();
}

export type TagMetric = 'leads_count' | 'companies_count';

/** Per tag of the team among `uuids`: contacts and companies carrying it, each an index-served count. */
export async function selectTagCounts(db: Executor, teamId: number, uuids: string[], metrics: TagMetric[]) {
  const count = (table: 'leads' | 'companies') =>
    sql<number>`(select count(*)::int from ${sql.table(table)} r
      where r.team_id = ${teamId} and r.tags @> array[t.uuid])`;
  const rows = await sql<{ uuid: string; leads_count: number | null; companies_count: number | null }>`
    select t.uuid,
      ${metrics.includes('leads_count') ? count('leads') : sql`null::int`} as leads_count,
      ${metrics.includes('companies_count') ? count('companies') : sql`null::int`} as companies_count
    from tags t
    where t.team_id = ${teamId} and t.uuid = any(${uuids}::uuid[])
  `.execute(db);
  return rows.rows;
}
