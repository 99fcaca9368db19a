import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, compileValue, type FilterSpec } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';

export type NoteObject = 'lead' | 'company';
export const NOTE_OBJECTS = ['lead', 'company'] as const;

/** `lead_uuid` / `company_uuid`: notes of that object type on the given record(s). */
function onObject(object: NoteObject) {
  return (value: unknown, { path }: { path: string }): RawBuilder<SqlBool> =>
    sql<SqlBool>`(n.object = ${object} and ${compileValue({ type: 'uuid' }, sql.ref('n.object_uuid'), value, path)})`;
}

export const noteFilterFields: FilterSpec['fields'] = {
  uuid: { type: 'uuid', column: 'n.uuid' },
  object: { type: 'enum', column: 'n.object', values: NOTE_OBJECTS, description: 'lead or company' },
  object_uuid: { type: 'uuid', column: 'n.object_uuid', description: 'The contact or company' },
  lead_uuid: { type: 'uuid', description: 'Notes of this contact', compile: onObject('lead') },
  company_uuid: { type: 'uuid', description: 'Notes of this company', compile: onObject('company') },
  user_id: { type: 'integer', column: 'n.user_id', description: 'Author' },
  created_at: { type: 'datetime', column: 'n.created_at' },
  updated_at: { type: 'datetime', column: 'n.updated_at' },
};
const noteFilter: FilterSpec = { name: 'note filter', fields: noteFilterFields };

export const noteSort: SortSpec = {
  fields: { created_at: 'n.created_at', updated_at: 'n.updated_at', uuid: 'n.uuid' },
  tiebreaker: 'n.uuid',
};

export async function selectNotes(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(noteFilter, filter);
  let base = db.selectFrom('notes as n').where('n.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy(orderByClause(page, noteSort)).limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectNote(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('notes')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export async function insertNote(
  db: Executor,
  note: {
    team_id: number;
    uuid: string;
    user_id: number;
    object: NoteObject;
    object_uuid: string;
    note: string;
  },
) {
  return db
    .insertInto('notes')
    .values({
      team_id: note.team_id,
      uuid: note.uuid,
      user_id: note.user_id,
      object: note.object,
      object_uuid: note.object_uuid,
      note: note.note,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateNote(db: Executor, teamId: number, uuid: string, text: string) {
  return db
    .updateTable('notes')
    .set({ note: text, updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteNote(db: Executor, teamId: number, uuid: string) {
  return db
    .deleteFrom('notes')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returning('uuid')
    .executeTakeFirst();
}

/** Removes the notes of records of one object type (one statement over the object index). */
export async function deleteNotesOf(db: Executor, teamId: number, object: NoteObject, uuids: string[]) {
  if (uuids.length === 0) return 0;
  const result = await db
    .deleteFrom('notes')
    .where('team_id', '=', teamId)
    .where('object_uuid', '=', sql<string>`any(${uuids}::uuid[])`)
    .where('object', '=', object)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
