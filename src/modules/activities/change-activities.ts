// The activities of a set-based change of the fields a timeline shows - list, pipeline stage, tags - as
// an activity source (see activityCtes) over the caller's `changed` CTE. `changed` returns, per record
// changed: uuid, company_uuid (contacts; null for companies), and each tracked field before and after
// (old_list_uuid, list_uuid; old_stage_uuid, pipeline_stage_uuid; old_tags, tags).
import { type RawBuilder, sql } from 'kysely';
import type { ActivityObjectType } from './activities.tables.js';
import { activityColumns } from './activity-types.js';

export type TrackedField = 'list' | 'stage' | 'tags';

/** What caused a change (a flow's node) and when (the engine's clock), recorded on its activities. */
export type ChangeOrigin = { flowUuid: string; at?: Date };

export function changeActivitySource(
  objectType: ActivityObjectType,
  field: TrackedField,
  origin?: ChangeOrigin,
): RawBuilder<unknown> {
  const extra = origin
    ? sql`jsonb_build_object('flow_uuid', ${origin.flowUuid}::uuid, 'flow_origin', 'automation')`
    : sql`'{}'::jsonb`;
  const row = (type: string, payload: RawBuilder<unknown>) =>
    activityColumns({
      objectType,
      objectUuid: sql`c.uuid`,
      companyUuid: sql`c.company_uuid`,
      type,
      payload: sql`${payload} || ${extra}`,
      ...(origin?.at ? { createdAt: sql`${origin.at}::timestamptz` } : {}),
    });
  if (field === 'list') {
    return sql`(select ${row('list_changed', sql`jsonb_build_object('from', c.old_list_uuid, 'to', c.list_uuid)`)}
      from changed c)`;
  }
  if (field === 'stage') {
    return sql`(select ${row(
      'pipeline_stage_changed',
      sql`jsonb_build_object('from', c.old_stage_uuid, 'to', c.pipeline_stage_uuid)`,
    )} from changed c)`;
  }
  const added = sql`array(select unnest(c.tags) except select unnest(c.old_tags))`;
  const removed = sql`array(select unnest(c.old_tags) except select unnest(c.tags))`;
  return sql`(
    select ${row('tags_added', sql`jsonb_build_object('tag_uuids', to_jsonb(${added}))`)}
    from changed c where cardinality(${added}) > 0
    union all
    select ${row('tags_removed', sql`jsonb_build_object('tag_uuids', to_jsonb(${removed}))`)}
    from changed c where cardinality(${removed}) > 0
  )`;
}

/** The activities of one record's change (PUT, upsert): what changed among list, stage and tags. */
export function changeActivities(
  before: { list_uuid?: string | null; pipeline_stage_uuid?: string | null; tags: string[] },
  changes: Record<string, unknown>,
): Array<{ type: string; payload: Record<string, unknown> }> {
  const activities: Array<{ type: string; payload: Record<string, unknown> }> = [];
  if (typeof changes.list_uuid === 'string') {
    activities.push({
      type: 'list_changed',
      payload: { from: before.list_uuid ?? null, to: changes.list_uuid },
    });
  }
  if (typeof changes.pipeline_stage_uuid === 'string') {
    activities.push({
      type: 'pipeline_stage_changed',
      payload: { from: before.pipeline_stage_uuid ?? null, to: changes.pipeline_stage_uuid },
    });
  }
  if (Array.isArray(changes.tags)) {
    const next = changes.tags as string[];
    const added = next.filter((tag) => !before.tags.includes(tag));
    const removed = before.tags.filter((tag) => !next.includes(tag));
    if (added.length > 0) activities.push({ type: 'tags_added', payload: { tag_uuids: added } });
    if (removed.length > 0) activities.push({ type: 'tags_removed', payload: { tag_uuids: removed } });
  }
  return activities;
}
