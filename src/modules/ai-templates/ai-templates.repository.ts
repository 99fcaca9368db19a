import { type ExpressionBuilder, type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { AiTemplatesTable } from './ai-templates.tables.js';

export type AiTemplateRow = Selectable<AiTemplatesTable>;

// A team has tens to hundreds of templates: filters scan the team's rows (index on team_id first).
export const aiTemplateFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('t.name'), value, path),
  },
  uuid: { type: 'uuid', column: 't.uuid' },
  name: { type: 'string', column: 't.name' },
  type: { type: 'enum', column: 't.type', values: ['message', 'connection_note', 'email', 'post_comment'] },
  template_category_uuid: { type: 'uuid', column: 't.template_category_uuid' },
  user_id: { type: 'integer', column: 't.user_id' },
  created_at: { type: 'datetime', column: 't.created_at' },
  updated_at: { type: 'datetime', column: 't.updated_at' },
};
const aiTemplateFilter: FilterSpec = { name: 'AI template filter', fields: aiTemplateFilterFields };

export const aiTemplateSort: SortSpec = {
  fields: {
    created_at: 't.created_at',
    updated_at: 't.updated_at',
    name: 't.name',
    type: 't.type',
    uuid: 't.uuid',
  },
  tiebreaker: 't.uuid',
};

/** Who reads: private templates (is_public false) are visible to their creator only. */
export type Reader = { teamId: number; userId: number };

const visibleTo = (reader: Reader) => (eb: ExpressionBuilder<DB & { t: AiTemplatesTable }, 't'>) =>
  eb.and([
    eb('t.team_id', '=', reader.teamId),
    eb.or([eb('t.is_public', '=', true), eb('t.user_id', '=', reader.userId)]),
  ]);

export async function selectAiTemplates(db: Executor, reader: Reader, filter: unknown, page: PageRequest) {
  const where = compileFilter(aiTemplateFilter, filter);
  let base = db.selectFrom('ai_templates as t').where(visibleTo(reader));
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll('t')
      .orderBy(orderByClause(page, aiTemplateSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectAiTemplate(db: Executor, reader: Reader, uuid: string) {
  return db
    .selectFrom('ai_templates as t')
    .selectAll('t')
    .where(visibleTo(reader))
    .where('t.uuid', '=', uuid)
    .executeTakeFirst();
}

export async function insertAiTemplate(db: Executor, values: Insertable<AiTemplatesTable>) {
  return db.insertInto('ai_templates').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateAiTemplate(
  db: Executor,
  reader: Reader,
  uuid: string,
  changes: Updateable<AiTemplatesTable>,
) {
  return db
    .updateTable('ai_templates as t')
    .set({ ...changes, updated_at: sql<Date>`now()` })
    .where(visibleTo(reader))
    .where('t.uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteAiTemplate(db: Executor, reader: Reader, uuid: string): Promise<boolean> {
  const result = await db
    .deleteFrom('ai_templates as t')
    .where(visibleTo(reader))
    .where('t.uuid', '=', uuid)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * The team's templates among `uuids`, private ones included (automations run for the whole team): the
 * `ai_template` reference checker of flow node payloads (`template_uuid`).
 */
export async function selectExistingAiTemplateUuids(
  db: Executor,
  teamId: number,
  uuids: string[],
): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const rows = await db
    .selectFrom('ai_templates')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', 'in', uuids)
    .execute();
  return new Set(rows.map((row) => row.uuid));
}
