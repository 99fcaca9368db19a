// Writing one batch, in one transaction fenced by the claim token (so internal nodes happen exactly
// once): the enrollments, their new and changed tasks, the effects, the rotation counters, and the
// dispatcher's mark for senders with an action ready.
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { recordEnrollmentEnds } from '../../enrollments/enrollment-signals.js';
import type { PreparedAction } from '../../leads/leads.mass-actions.js';
import { applyEffects } from './batch-effects.js';
import type { Work as WorkType } from './work.js';

const json = (value: unknown) => JSON.stringify(value);

/** Statuses of an enrollment that has left its flow (claimed rows were all in progress). */
const ENDED = new Set(['finished', 'canceled', 'failed']);

export async function writeWorks(
  trx: Executor,
  teamId: number,
  works: WorkType[],
  now: Date,
  prepared: Map<string, PreparedAction>,
): Promise<Set<string>> {
  const rows = works.map((w) => ({
    uuid: w.fl.uuid,
    claim_token: w.claimToken,
    status: w.fl.status,
    flow_node_id: w.fl.flow_node_id,
    step: w.fl.step,
    next_run_at: w.fl.next_run_at,
    wait: w.fl.wait,
    reason: w.fl.reason,
    sender_profile_uuid: w.fl.sender_profile_uuid,
    finished_at: w.fl.finished_at,
  }));
  const updated = await sql<{ uuid: string }>`
    update flow_leads fl set status = v.status, flow_node_id = v.flow_node_id, step = v.step,
      next_run_at = v.next_run_at, wait = v.wait, reason = v.reason,
      sender_profile_uuid = v.sender_profile_uuid, finished_at = v.finished_at, lease_until = null,
      updated_at = ${now}
    from jsonb_to_recordset(${json(rows)}::jsonb) as v(uuid uuid, claim_token int, status text,
      flow_node_id int, step int, next_run_at timestamptz, wait jsonb, reason text,
      sender_profile_uuid uuid, finished_at timestamptz)
    where fl.team_id = ${teamId} and fl.uuid = v.uuid and fl.claim_token = v.claim_token
    returning fl.uuid
  `.execute(trx);
  const accepted = new Set(updated.rows.map((r) => r.uuid));
  const mine = works.filter((w) => accepted.has(w.fl.uuid));
  await recordEnrollmentEnds(
    trx,
    teamId,
    mine.filter((w) => ENDED.has(w.fl.status)).map((w) => w.fl.uuid),
  );

  const inserts = mine.flatMap((w) =>
    w.newTasks.map((t) => ({
      ...t,
      lead_uuid: w.fl.lead_uuid,
      company_uuid: w.lead?.company_uuid ?? null,
      flow_uuid: w.fl.flow_uuid,
      flow_lead_uuid: w.fl.uuid,
      priority: w.flow?.priority ?? 0,
      assigned_to: t.automation === 'manual' ? (w.flow?.user_id ?? null) : null,
    })),
  );
  if (inserts.length > 0) {
    await sql`
      insert into tasks (team_id, uuid, lead_uuid, company_uuid, sender_profile_uuid, flow_uuid,
        flow_lead_uuid, flow_node_id, step, type, automation, status, payload, fork_result, error_msg,
        automation_error_code, priority, note, timezone, schedule_at, executed_at, assigned_to,
        created_at, updated_at)
      select ${teamId}, v.uuid, v.lead_uuid, v.company_uuid, v.sender_profile_uuid, v.flow_uuid,
        v.flow_lead_uuid, v.flow_node_id, v.step, v.type, v.automation, v.status, v.payload,
        v.fork_result, v.error_msg, v.automation_error_code, v.priority, v.note, v.timezone,
        v.schedule_at, v.executed_at, v.assigned_to, ${now}, ${now}
      from jsonb_to_recordset(${json(inserts)}::jsonb) as v(uuid uuid, lead_uuid uuid, company_uuid uuid,
        sender_profile_uuid uuid, flow_uuid uuid, flow_lead_uuid uuid, flow_node_id int, step int,
        type text, automation text, status text, payload jsonb, fork_result int, error_msg text,
        automation_error_code text, priority int, note text, timezone text, schedule_at timestamptz,
        executed_at timestamptz, assigned_to bigint)
      on conflict (team_id, flow_lead_uuid, step) where flow_lead_uuid is not null do nothing
    `.execute(trx);
  }

  const changes = mine.flatMap((w) => w.taskChanges);
  if (changes.length > 0) {
    // Only a task still in progress moves: a person's move made meanwhile wins.
    await sql`
      update tasks t set status = v.status, fork_result = coalesce(v.fork_result, t.fork_result),
        error_msg = coalesce(v.error_msg, t.error_msg),
        automation_error_code = coalesce(v.automation_error_code, t.automation_error_code),
        executed_at = v.executed_at, updated_at = ${now}
      from jsonb_to_recordset(${json(changes)}::jsonb) as v(uuid uuid, status text, fork_result int,
        error_msg text, automation_error_code text, executed_at timestamptz)
      where t.team_id = ${teamId} and t.uuid = v.uuid and t.status = 'in_progress'
    `.execute(trx);
  }

  await applyEffects(trx, teamId, mine, prepared, now);

  const rotated = mine.flatMap((w) =>
    w.rotated ? [{ flow: w.fl.flow_uuid, source: w.rotated.sourceId, sender: w.rotated.sender }] : [],
  );
  if (rotated.length > 0) {
    await sql`
      insert into contact_source_rotation (team_id, flow_uuid, contact_source_id, sender_profile_uuid, assigned)
      select ${teamId}, v.flow, v.source, v.sender, count(*)
      from jsonb_to_recordset(${json(rotated)}::jsonb) as v(flow uuid, source int, sender uuid)
      group by v.flow, v.source, v.sender
      on conflict (team_id, flow_uuid, contact_source_id, sender_profile_uuid)
      do update set assigned = contact_source_rotation.assigned + excluded.assigned
    `.execute(trx);
  }

  await markDispatch(trx, teamId, mine);
  return accepted;
}

/** Tells the dispatcher when each sender has an action ready (the earliest wins). */
export async function markDispatch(trx: Executor, teamId: number, works: WorkType[]) {
  const marks = new Map<string, { sender: string; channel: string; at: Date }>();
  for (const work of works) {
    if (!work.dispatch || !work.fl.sender_profile_uuid || work.fl.status !== 'in_progress') continue;
    const key = `${work.fl.sender_profile_uuid}:${work.dispatch.channel}`;
    const existing = marks.get(key);
    if (!existing || work.dispatch.at < existing.at) {
      marks.set(key, {
        sender: work.fl.sender_profile_uuid,
        channel: work.dispatch.channel,
        at: work.dispatch.at,
      });
    }
  }
  if (marks.size === 0) return;
  await sql`
    insert into sender_channel_state (team_id, sender_profile_uuid, channel, next_dispatch_at)
    select ${teamId}, v.sender, v.channel, v.at
    from jsonb_to_recordset(${json([...marks.values()])}::jsonb) as v(sender uuid, channel text, at timestamptz)
    on conflict (team_id, sender_profile_uuid, channel) do update set
      next_dispatch_at = least(coalesce(sender_channel_state.next_dispatch_at, 'infinity'),
        greatest(excluded.next_dispatch_at, coalesce(sender_channel_state.next_slot_at, '-infinity'))),
      -- A dispatcher holding the sender would overwrite next_dispatch_at on release: it keeps this.
      pending_dispatch_at = least(coalesce(sender_channel_state.pending_dispatch_at, 'infinity'), excluded.next_dispatch_at)
  `.execute(trx);
}
