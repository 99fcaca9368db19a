// Set-based updates of the contact fields a timeline shows - list, pipeline stage, tags: the statement
// that changes the contacts also records one activity per contact it changed (list_changed,
// pipeline_stage_changed, tags_added / tags_removed with what was there before), so a mass action over
// 50,000 contacts or a flow's CRM node stays one statement and never changes a contact silently.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { activityCtes } from '../activities/activities.repository.js';
import {
  type ChangeOrigin,
  changeActivitySource,
  type TrackedField,
} from '../activities/change-activities.js';
import { teamScope } from './leads.query.js';

export type { ChangeOrigin };

/**
 * Sets `set` on the team's contacts matching `where` (alias `l`) and records the `field` activities of
 * the contacts changed. Returns the number of contacts changed. Run it in a transaction.
 */
export async function updateContactsTracked(
  trx: Executor,
  teamId: number,
  where: RawBuilder<SqlBool>,
  set: RawBuilder<unknown>,
  field: TrackedField,
  origin?: ChangeOrigin,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with o as (
      select l.uuid, l.list_uuid, l.pipeline_stage_uuid, l.tags from leads l
      where ${teamScope(teamId, where)} for update
    ),
    changed as (
      update leads l set ${set}, updated_at = now() from o
      where l.team_id = ${teamId} and l.uuid = o.uuid
      returning l.uuid, l.company_uuid, o.list_uuid as old_list_uuid, l.list_uuid,
        o.pipeline_stage_uuid as old_stage_uuid, l.pipeline_stage_uuid, o.tags as old_tags, l.tags
    ),
    ${activityCtes(teamId, changeActivitySource('lead', field, origin))}
    select count(*)::int as n from changed
  `.execute(trx);
  return rows[0]?.n ?? 0;
}

/** Moves every contact of the team's list `from` into the list `to`, recording list_changed activities. */
export function moveListContacts(trx: Executor, teamId: number, from: string, to: string): Promise<number> {
  return updateContactsTracked(
    trx,
    teamId,
    sql<SqlBool>`l.list_uuid = ${from}`,
    sql`list_uuid = ${to}::uuid`,
    'list',
  );
}
