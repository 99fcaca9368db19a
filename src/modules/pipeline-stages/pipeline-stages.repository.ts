import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { caseInsensitiveField, compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { PipelineCategory, PipelineObject } from './pipeline-stages.tables.js';

export const PIPELINE_OBJECTS = ['lead', 'company'] as const;
export const PIPELINE_CATEGORIES = ['cold', 'engaging', 'positive', 'negative'] as const;

const objectField = {
  type: 'enum',
  column: 's.object',
  values: PIPELINE_OBJECTS,
  description: 'lead or company',
} as const;

export const stageFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('s.name'), value, path),
  },
  uuid: { type: 'uuid', column: 's.uuid' },
  object: objectField,
  object_type: { ...objectField, description: 'Alias of object' },
  category: { type: 'enum', column: 's.category', values: PIPELINE_CATEGORIES },
  type: { type: 'string', column: 's.type', description: 'custom, new, approaching, engaging or replied' },
  name: caseInsensitiveField('s.name', 'Name equals (case-insensitive)'),
  is_default: { type: 'boolean', column: 's.is_default' },
  created_at: { type: 'datetime', column: 's.created_at' },
  updated_at: { type: 'datetime', column: 's.updated_at' },
};
const stageFilter: FilterSpec = { name: 'pipeline stage filter', fields: stageFilterFields };

export const stageSort: SortSpec = {
  fields: {
    order: 's.order',
    name: 's.name',
    created_at: 's.created_at',
    updated_at: 's.updated_at',
    uuid: 's.uuid',
  },
  default: 'order',
  tiebreaker: 's.uuid',
};

export async function selectStages(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(stageFilter, filter);
  let base = db.selectFrom('pipeline_stages as s').where('s.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy(orderByClause(page, stageSort)).limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectStage(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('pipeline_stages')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** Locks the stage: records cannot be put on it (their foreign key check waits) until commit. */
export async function lockStage(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('pipeline_stages')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .forUpdate()
    .executeTakeFirst();
}

/** A custom stage; without `order` it goes after the object's last stage. */
export async function insertStage(
  db: Executor,
  stage: {
    team_id: number;
    uuid: string;
    name: string;
    object: PipelineObject;
    category: PipelineCategory;
    order?: number;
  },
) {
  // Read first, not a subquery in VALUES (Citus refuses subqueries in an INSERT ... VALUES).
  const order =
    stage.order ??
    (
      await sql<{ next: number }>`select coalesce(max(p."order"), 0) + 1 as next from pipeline_stages p
        where p.team_id = ${stage.team_id} and p.object = ${stage.object}`.execute(db)
    ).rows[0]!.next;
  return db
    .insertInto('pipeline_stages')
    .values({
      team_id: stage.team_id,
      uuid: stage.uuid,
      name: stage.name,
      object: stage.object,
      category: stage.category,
      type: 'custom',
      is_default: false,
      order,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateStage(
  db: Executor,
  teamId: number,
  uuid: string,
  changes: { name?: string; category?: PipelineCategory; order?: number },
) {
  return db
    .updateTable('pipeline_stages')
    .set({ name: changes.name, category: changes.category, order: changes.order, updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Where the records of a stage being deleted go: the first other stage of the same object in the same
 * category; when a category has no other stage (default stages can be recategorised), the first cold
 * stage, then any.
 */
export async function selectReplacementStage(
  db: Executor,
  teamId: number,
  stage: { uuid: string; object: PipelineObject; category: PipelineCategory },
) {
  return db
    .selectFrom('pipeline_stages')
    .select(['uuid', 'name', 'category'])
    .where('team_id', '=', teamId)
    .where('object', '=', stage.object)
    .where('uuid', '!=', stage.uuid)
    .orderBy(sql`category = ${stage.category}`, 'desc')
    .orderBy(sql`category = 'cold'`, 'desc')
    .orderBy('order')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}

/** Moves every record of one stage to another: one statement over the (team_id, stage) index. */
export async function moveRecordsToStage(
  db: Executor,
  teamId: number,
  object: PipelineObject,
  from: string,
  to: string,
): Promise<number> {
  const table = object === 'lead' ? 'leads' : 'companies';
  const result = await db
    .updateTable(table)
    .set({ pipeline_stage_uuid: to, updated_at: new Date() })
    .where('team_id', '=', teamId)
    .where('pipeline_stage_uuid', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteStage(db: Executor, teamId: number, uuid: string) {
  await db.deleteFrom('pipeline_stages').where('team_id', '=', teamId).where('uuid', '=', uuid).execute();
}

export type StageRow = NonNullable<Awaited<ReturnType<typeof selectStage>>>;
