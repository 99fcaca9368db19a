// How the rest of the product moves enrollments without knowing the engine's internals: end them,
// wake them, release a hold, switch a flow's rows on or off. Every change bumps the claim token, so a
// batch the engine is running on those rows at that moment cannot overwrite it. Every function is set-based (one
// statement for any number of rows), runs in the caller's transaction, and leaves the enrollment in a
// state the engine understands - the engine then takes it from there on its next claim.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { activityCtes } from '../activities/activities.repository.js';
import { activityColumns, flowActivityPayload, flowEndActivityType } from '../activities/activity-types.js';
import type { EnrollmentStatus } from '../flows/flows.tables.js';

/**
 * Enrollments of one team: by uuid, those of one contact (in the given flows, or in any), or any
 * condition over the alias `fl` (flow_leads).
 */
export type EnrollmentSelection =
  | { uuids: string[] }
  | { leadUuid: string; flowUuids?: string[] }
  | { where: RawBuilder<SqlBool> };

function condition(selection: EnrollmentSelection): RawBuilder<SqlBool> {
  if ('uuids' in selection) return sql<SqlBool>`fl.uuid = any(${selection.uuids}::uuid[])`;
  if ('leadUuid' in selection) {
    return selection.flowUuids
      ? sql<SqlBool>`fl.lead_uuid = ${selection.leadUuid} and fl.flow_uuid = any(${selection.flowUuids}::uuid[])`
      : sql<SqlBool>`fl.lead_uuid = ${selection.leadUuid}`;
  }
  return selection.where;
}

/**
 * Ends the selected live (in_progress or paused) enrollments with `status` and `reason`, and cancels
 * their pending tasks in the same statement, so nothing planned for them is ever executed; each
 * contact's timeline records the end (flow_finished, flow_canceled, flow_failed). Returns
 * the number of enrollments ended. Ended enrollments are left alone (their first reason stands).
 */
export async function endEnrollments(
  db: Executor,
  teamId: number,
  selection: EnrollmentSelection,
  status: Extract<EnrollmentStatus, 'finished' | 'canceled' | 'failed'>,
  reason: string,
  at?: Date,
): Promise<number> {
  const now = at ?? sql`now()`;
  const result = await sql<{ ended: number }>`
    with ended as (
      update flow_leads fl set status = ${status}, reason = ${reason}, next_run_at = null, wait = null,
        finished_at = ${now}, updated_at = ${now}, claim_token = claim_token + 1, lease_until = null
      where fl.team_id = ${teamId} and fl.status in ('in_progress', 'paused') and ${condition(selection)}
      returning fl.uuid, fl.lead_uuid, fl.flow_uuid
    ),
    canceled as (
      -- The ended uuids as one array: their tasks are found on the enrollment index however many tasks
      -- the team has (a join against the CTE is planned from a guess of one row).
      update tasks t set status = 'canceled', error_msg = coalesce(t.error_msg, ${reason}), updated_at = ${now}
      where t.team_id = ${teamId} and t.flow_lead_uuid = any(array(select uuid from ended))
        and t.status = 'in_progress'
      returning 1
    ),
    ${activityCtes(
      teamId,
      sql`(select ${activityColumns({
        objectType: 'lead',
        objectUuid: sql`e.lead_uuid`,
        type: flowEndActivityType(status),
        payload: flowActivityPayload({
          flowUuid: sql`e.flow_uuid`,
          flowLeadUuid: sql`e.uuid`,
          reason: sql`${reason}::text`,
        }),
        createdAt: sql`${now}::timestamptz`,
      })} from ended e)`,
    )}
    select (select count(*) from ended)::int as ended, (select count(*) from canceled)::int as canceled
  `.execute(db);
  return result.rows[0]?.ended ?? 0;
}

/**
 * Asks the engine to look at the selected in_progress enrollments now (after a task of theirs was
 * completed, skipped or retried by hand, or a hold was released). Returns the number woken.
 */
export async function wakeEnrollments(
  db: Executor,
  teamId: number,
  selection: EnrollmentSelection,
  at?: Date,
): Promise<number> {
  const now = at ?? sql`now()`;
  const result = await sql`
    update flow_leads fl set next_run_at = ${now}, updated_at = ${now},
      claim_token = fl.claim_token + 1, lease_until = null
    where fl.team_id = ${teamId} and fl.status = 'in_progress' and ${condition(selection)}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Releases the selected enrollments held at a `util_hodor` node (continue-automation). Returns the
 * number released; 0 means nothing was held.
 */
export async function releaseHolds(
  db: Executor,
  teamId: number,
  selection: EnrollmentSelection,
  at?: Date,
): Promise<number> {
  const now = at ?? sql`now()`;
  const result = await sql`
    update flow_leads fl set wait = fl.wait || '{"released": true}'::jsonb, next_run_at = ${now},
      updated_at = ${now}, claim_token = fl.claim_token + 1, lease_until = null
    where fl.team_id = ${teamId} and fl.status = 'in_progress' and fl.wait ->> 'kind' = 'hold'
      and not coalesce((fl.wait ->> 'released')::boolean, false) and ${condition(selection)}
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Mirrors a flow's status onto its enrollments (the claim index holds only rows of running flows).
 * Call in the transaction that changes the flow's status.
 */
export async function setFlowActive(db: Executor, teamId: number, flowUuid: string, active: boolean) {
  await sql`
    update flow_leads set flow_active = ${active}
    where team_id = ${teamId} and flow_uuid = ${flowUuid} and flow_active <> ${active}
      and status in ('in_progress', 'paused')
  `.execute(db);
}

/**
 * Brings back the enrollments the engine ended as `failed` at the step of one of `taskUuids` - a failed
 * action task a person retries or skips by hand: they are in progress again and due now, so the engine
 * runs the step again (retry) or takes its next node (skip). Only an enrollment still at that task's
 * step comes back; `flow_active` is read from its flow again. Returns the number resumed.
 */
export async function resumeFailedEnrollments(
  db: Executor,
  teamId: number,
  taskUuids: string[],
  at?: Date,
): Promise<number> {
  if (taskUuids.length === 0) return 0;
  const now = at ?? sql`now()`;
  const result = await sql`
    update flow_leads fl set status = 'in_progress', reason = null, finished_at = null, wait = null,
      next_run_at = ${now}, updated_at = ${now}, claim_token = fl.claim_token + 1,
      flow_active = exists (
        select 1 from flows f where f.team_id = ${teamId} and f.uuid = fl.flow_uuid and f.status = 'on'
      )
    from tasks t
    where t.team_id = ${teamId} and t.uuid = any(${taskUuids}::uuid[]) and t.automation = 'auto'
      and fl.team_id = ${teamId} and fl.uuid = t.flow_lead_uuid and fl.step = t.step
      and fl.status = 'failed'
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Records on the contacts' timelines the end of enrollments the engine itself ended (the status and
 * reason they were stored with); enrollments among `uuids` that are live are left out.
 */
export async function recordEnrollmentEnds(db: Executor, teamId: number, uuids: string[]): Promise<void> {
  if (uuids.length === 0) return;
  await sql`
    with ended as (
      select fl.uuid, fl.lead_uuid, fl.flow_uuid, fl.status, fl.reason, fl.finished_at from flow_leads fl
      where fl.team_id = ${teamId} and fl.uuid = any(${uuids}::uuid[])
        and fl.status in ('finished', 'canceled', 'failed')
    ),
    ${activityCtes(
      teamId,
      sql`(select ${activityColumns({
        objectType: 'lead',
        objectUuid: sql`e.lead_uuid`,
        type: sql`'flow_' || e.status`,
        payload: flowActivityPayload({
          flowUuid: sql`e.flow_uuid`,
          flowLeadUuid: sql`e.uuid`,
          reason: sql`e.reason`,
        }),
        createdAt: sql`e.finished_at`,
      })} from ended e)`,
    )}
    select 1
  `.execute(db);
}
