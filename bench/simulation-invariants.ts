// The simulation's checks (simulation.ts): the engine's promises - no double send, no action outside its
// window or over its limits, a reply stops the sequence, nothing stuck, statistics equal a recount -
// checked against the sandbox's record of what it was asked to do.
import { sql } from 'kysely';
import type { Database } from '../src/db/database.js';
import { isOpenAt, localDate } from '../src/lib/schedule.js';
import {
  effectiveDailyLimit,
  isSenderActionType,
  weeklyLimit,
} from '../src/modules/senders/sender-limits.js';

export type Invariant = { name: string; violations: number; detail: string };

async function count(db: Database, query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
  return (await query.execute(db)).rows[0]?.n ?? 0;
}

/** The engine's promises, checked against the sandbox's record of what it was asked to do. */
export async function checkInvariants(db: Database, teamId: number, flow: string): Promise<Invariant[]> {
  const invariants: Invariant[] = [];

  const doubles = await count(
    db,
    sql<{ n: number }>`
      select count(*)::int as n from (
        select t.flow_lead_uuid, t.step from sandbox_linkedin_actions a
        join tasks t on t.team_id = a.team_id and t.uuid = a.task_uuid
        where a.team_id = ${teamId} group by t.flow_lead_uuid, t.step having count(*) > 1
      ) d`,
  );
  invariants.push({
    name: 'no double sends',
    violations: doubles,
    detail: 'enrollment steps the network acted on more than once',
  });

  const senders = await db.selectFrom('sender_profiles').selectAll().where('team_id', '=', teamId).execute();
  const senderMap = new Map(senders.map((s) => [s.uuid, s]));
  const actions = await db
    .selectFrom('sandbox_linkedin_actions')
    .select(['sender_profile_uuid', 'action', 'performed_at', 'lead_uuid'])
    .where('team_id', '=', teamId)
    .execute();
  let outside = 0;
  const perDay = new Map<string, number>();
  for (const action of actions) {
    const sender = senderMap.get(action.sender_profile_uuid);
    if (!sender) continue;
    if (!isOpenAt(sender.schedule, action.performed_at)) outside += 1;
    const day = localDate(action.performed_at, sender.schedule.timezone);
    const key = `${sender.uuid}|${action.action}|${day}`;
    perDay.set(key, (perDay.get(key) ?? 0) + 1);
  }
  invariants.push({
    name: 'no action outside its window',
    violations: outside,
    detail: `${actions.length} actions checked against their sender's schedule`,
  });

  let overruns = 0;
  let weeklyOverruns = 0;
  for (const [key, n] of perDay) {
    const [uuid, action, day] = key.split('|') as [string, string, string];
    const sender = senderMap.get(uuid);
    if (!sender || !isSenderActionType(action)) continue;
    if (n > effectiveDailyLimit(sender, action, day)) overruns += 1;
    const weekly = weeklyLimit(sender, action);
    if (weekly !== null) {
      // The 7 local days ending on `day`.
      let week = 0;
      for (let i = 0; i < 7; i += 1) {
        const d = new Date(`${day}T12:00:00Z`);
        d.setUTCDate(d.getUTCDate() - i);
        week += perDay.get(`${uuid}|${action}|${d.toISOString().slice(0, 10)}`) ?? 0;
      }
      if (week > weekly) weeklyOverruns += 1;
    }
  }
  invariants.push({
    name: 'no daily limit overrun',
    violations: overruns,
    detail: `${perDay.size} sender-action-days`,
  });
  invariants.push({
    name: 'no weekly invitation overrun',
    violations: weeklyOverruns,
    detail: 'rolling 7 local days',
  });

  const afterReply = await count(
    db,
    sql<{ n: number }>`
      select count(*)::int as n from sandbox_linkedin_actions a
      where a.team_id = ${teamId} and exists (
        select 1 from sandbox_linkedin_actions r
        where r.team_id = a.team_id and r.sender_profile_uuid = a.sender_profile_uuid and r.lead_uuid = a.lead_uuid
          and r.response = 'reply' and r.responded_at is not null and r.responded_at < a.performed_at)`,
  );
  invariants.push({
    name: 'a reply stops the sequence',
    violations: afterReply,
    detail: 'sends to a contact after its reply reached the engine',
  });

  const stuck = await count(
    db,
    sql<{ n: number }>`
      select count(*)::int as n from flow_leads fl
      where fl.team_id = ${teamId} and fl.flow_uuid = ${flow} and (
        (fl.status in ('finished', 'canceled', 'failed', 'paused') and fl.reason is null)
        or (fl.status = 'in_progress' and fl.next_run_at is null and not (
          fl.wait ->> 'kind' in ('hold', 'manual')
          or exists (
            select 1 from tasks t where t.team_id = fl.team_id and t.flow_lead_uuid = fl.uuid and t.step = fl.step
              and t.status = 'in_progress' and t.schedule_at is not null)
        ))
      )`,
  );
  invariants.push({
    name: 'no stuck enrollment',
    violations: stuck,
    detail: 'ended without a reason, or waiting on nothing',
  });

  const taskDrift = await count(
    db,
    sql<{ n: number }>`
      select count(*)::int as n from (
        select coalesce(d.k, t.k) as k from
          (select concat_ws('|', flow_uuid, flow_node_id, type, status, fork_result) as k, sum(delta) as n
            from task_count_deltas where team_id = ${teamId} group by 1 having sum(delta) <> 0) d
          full join (select concat_ws('|', flow_uuid, flow_node_id, type, status, fork_result) as k, count(*) as n
            from tasks where team_id = ${teamId} group by 1) t on t.k = d.k
        where d.n is distinct from t.n
      ) x`,
  );
  const enrollmentDrift = await count(
    db,
    sql<{ n: number }>`
      select count(*)::int as n from (
        select 1 from
          (select status, sum(delta) as n from flow_lead_count_deltas where team_id = ${teamId} group by 1 having sum(delta) <> 0) d
          full join (select status, count(*) as n from flow_leads where team_id = ${teamId} group by 1) f on f.status = d.status
        where d.n is distinct from f.n
      ) x`,
  );
  const sentDrift = await count(
    db,
    sql<{ n: number }>`
      select count(*)::int as n from (
        select 1 from
          (select flow_node_id, sum(delta) as n from flow_conversion_deltas
            where team_id = ${teamId} and kind = 'sent' group by 1) c
          full join (select flow_node_id, count(*) as n from tasks
            where team_id = ${teamId} and status = 'closed' and type like 'linkedin_send_%' group by 1) t
            on t.flow_node_id = c.flow_node_id
        where c.n is distinct from t.n
      ) x`,
  );
  invariants.push({
    name: 'statistics equal a recount',
    violations: taskDrift + enrollmentDrift + sentDrift,
    detail: `task groups ${taskDrift}, enrollment statuses ${enrollmentDrift}, sent per node ${sentDrift} differ`,
  });
  return invariants;
}
