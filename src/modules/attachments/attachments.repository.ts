import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';

export const attachmentFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'File name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('attachments.name'), value, path),
  },
  uuid: { type: 'uuid', column: 'attachments.uuid' },
  type: { type: 'string', column: 'attachments.mime_type', description: 'MIME type, e.g. application/pdf' },
  user_id: { type: 'integer', column: 'attachments.user_id' },
  created_at: { type: 'datetime', column: 'attachments.created_at' },
};
const attachmentFilter: FilterSpec = { name: 'attachment filter', fields: attachmentFilterFields };

export const attachmentSort: SortSpec = {
  fields: {
    created_at: 'attachments.created_at',
    updated_at: 'attachments.updated_at',
    uuid: 'attachments.uuid',
  },
  tiebreaker: 'attachments.uuid',
};

export async function selectAttachments(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(attachmentFilter, filter);
  let base = db.selectFrom('attachments').where('attachments.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(orderByClause(page, attachmentSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export async function selectAttachment(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** The team's attachments among `uuids` (unknown and other teams' uuids are left out). */
export async function selectAttachmentsByUuids(db: Executor, teamId: number, uuids: readonly string[]) {
  if (uuids.length === 0) return [];
  return db
    .selectFrom('attachments')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', 'in', [...new Set(uuids)])
    .execute();
}

export async function insertAttachment(
  db: Executor,
  row: {
    team_id: number;
    uuid: string;
    user_id: number | null;
    name: string;
    storage_key: string;
    size_bytes: number;
    mime_type: string;
  },
) {
  return db
    .insertInto('attachments')
    .values({
      team_id: row.team_id,
      uuid: row.uuid,
      user_id: row.user_id,
      name: row.name,
      storage_key: row.storage_key,
      size_bytes: row.size_bytes,
      mime_type: row.mime_type,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteAttachment(db: Executor, teamId: number, uuid: string) {
  return db
    .deleteFrom('attachments')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returning('storage_key')
    .executeTakeFirst();
}
