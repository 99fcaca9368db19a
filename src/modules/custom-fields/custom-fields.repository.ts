import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { caseInsensitiveField, compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { CustomFieldValue } from './custom-field-values.js';
import type { CustomFieldObject, CustomFieldType } from './custom-fields.tables.js';

/** A team's custom field definitions of one object type (at most 100), ordered for display. */
export async function selectCustomFieldDefinitions(db: Executor, teamId: number, object: CustomFieldObject) {
  return db
    .selectFrom('custom_fields')
    .select(['uuid', 'name', 'type', 'order'])
    .where('team_id', '=', teamId)
    .where('object', '=', object)
    .orderBy('order')
    .orderBy('created_at')
    .execute();
}

export type CustomFieldDefinition = Awaited<ReturnType<typeof selectCustomFieldDefinitions>>[number];

export const CUSTOM_FIELD_OBJECTS = ['lead', 'company'] as const;
export const CUSTOM_FIELD_TYPES = ['string', 'number', 'boolean', 'date'] as const;

const objectField = {
  type: 'enum',
  column: 'f.object',
  values: CUSTOM_FIELD_OBJECTS,
  description: 'lead or company',
} as const;

export const customFieldFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('f.name'), value, path),
  },
  uuid: { type: 'uuid', column: 'f.uuid' },
  object: objectField,
  object_type: { ...objectField, description: 'Alias of object' },
  type: { type: 'enum', column: 'f.type', values: CUSTOM_FIELD_TYPES },
  name: caseInsensitiveField('f.name', 'Name equals (case-insensitive)'),
  created_at: { type: 'datetime', column: 'f.created_at' },
  updated_at: { type: 'datetime', column: 'f.updated_at' },
};
const customFieldFilter: FilterSpec = { name: 'custom field filter', fields: customFieldFilterFields };

export const customFieldSort: SortSpec = {
  fields: {
    order: 'f.order',
    name: 'f.name',
    created_at: 'f.created_at',
    updated_at: 'f.updated_at',
    uuid: 'f.uuid',
  },
  default: 'order',
  tiebreaker: 'f.uuid',
};

export async function selectCustomFields(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(customFieldFilter, filter);
  let base = db.selectFrom('custom_fields as f').where('f.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(orderByClause(page, customFieldSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** One definition; `lock: 'share'` keeps it from being deleted until the transaction ends. */
export async function selectCustomField(db: Executor, teamId: number, uuid: string, lock?: 'share') {
  let query = db
    .selectFrom('custom_fields')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid);
  if (lock === 'share') query = query.forShare();
  return query.executeTakeFirst();
}

export async function selectCustomFieldByName(
  db: Executor,
  teamId: number,
  object: CustomFieldObject,
  name: string,
) {
  return db
    .selectFrom('custom_fields')
    .select(['uuid', 'name'])
    .where('team_id', '=', teamId)
    .where('object', '=', object)
    .where(sql<SqlBool>`lower(name) = lower(${name})`)
    .executeTakeFirst();
}

/** Creations of one team and object type run one at a time, so the 100-field limit holds under races. */
export async function lockCustomFieldCreation(db: Executor, teamId: number, object: CustomFieldObject) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`custom_fields:${teamId}:${object}`}, 0))`.execute(
    db,
  );
}

export async function countCustomFields(db: Executor, teamId: number, object: CustomFieldObject) {
  const row = await db
    .selectFrom('custom_fields')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('team_id', '=', teamId)
    .where('object', '=', object)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inserts the definition; undefined when the name is taken for that object type (any case). */
export async function insertCustomField(
  db: Executor,
  field: {
    team_id: number;
    uuid: string;
    user_id: number;
    name: string;
    object: CustomFieldObject;
    type: CustomFieldType;
    order?: number;
  },
) {
  // Read apart from the insert: Citus refuses a subquery inside INSERT ... VALUES.
  const order =
    field.order ??
    (
      await sql<{ next: number }>`
        select coalesce(max(f."order"), 0) + 1 as next from custom_fields f
        where f.team_id = ${field.team_id} and f.object = ${field.object}
      `.execute(db)
    ).rows[0]!.next;
  return db
    .insertInto('custom_fields')
    .values({
      team_id: field.team_id,
      uuid: field.uuid,
      user_id: field.user_id,
      name: field.name,
      object: field.object,
      type: field.type,
      order,
    })
    .onConflict((oc) => oc.expression(sql`team_id, object, lower(name)`).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateCustomField(
  db: Executor,
  teamId: number,
  uuid: string,
  changes: { name?: string; order?: number },
) {
  return db
    .updateTable('custom_fields')
    .set({ name: changes.name, order: changes.order, updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteCustomField(db: Executor, teamId: number, uuid: string) {
  return db
    .deleteFrom('custom_fields')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

const RECORD_TABLES = { lead: 'leads', company: 'companies' } as const;

/** Sets (or, with null, removes) one value on one record; undefined when the record does not exist. */
export async function setRecordCustomFieldValue(
  db: Executor,
  teamId: number,
  object: CustomFieldObject,
  recordUuid: string,
  fieldUuid: string,
  value: CustomFieldValue,
) {
  const next =
    value === null
      ? sql`custom_fields - ${fieldUuid}::text`
      : sql`custom_fields || ${JSON.stringify({ [fieldUuid]: value })}::jsonb`;
  const result = await sql<{ updated_at: Date }>`
    update ${sql.table(RECORD_TABLES[object])}
    set custom_fields = ${next}, updated_at = now()
    where team_id = ${teamId} and uuid = ${recordUuid}
    returning updated_at
  `.execute(db);
  return result.rows[0];
}
