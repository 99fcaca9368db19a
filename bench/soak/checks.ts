// What the soak proves once the load stops and the system has settled: nothing accepted was lost,
// nothing was sent twice (counted on the sandbox network's and the SMTP server's side), every webhook
// event arrived signed, no enrollment is stuck, and the counters equal a recount.
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { Database } from '../../src/db/database.js';
import type { ReceivedRequest } from '../../src/modules/webhooks/receiver.test-support.js';
import type { LoadState } from './load.js';

export type Check = { name: string; ok: boolean; detail: string };

export async function checkInvariants(options: {
  db: Database;
  teamId: number;
  state: LoadState;
  hooks: ReceivedRequest[];
  webhookSecret: string;
  /** The sender's daily and weekly invitation limit: notes may still wait once the network got this many. */
  invitationLimit: number;
  /** The sender the notes are queued for (its invitations count against the limit). */
  noteSenderUuid: string;
}): Promise<Check[]> {
  const { db, teamId, state } = options;
  const checks: Check[] = [];
  const accepted = [...state.accepted.keys()];

  const { rows: stored } = await sql<{ n: number }>`
    select count(*)::int as n from leads where team_id = ${teamId} and uuid = any(${accepted}::uuid[])
  `.execute(db);
  checks.push({
    name: 'no lost write',
    ok: stored[0]!.n === accepted.length,
    detail: `${stored[0]!.n} of ${accepted.length} accepted contacts stored`,
  });

  const importedIds = [...state.imports.values()].flat();
  const { rows: imported } = await sql<{ stored: number; done: number }>`
    select
      (select count(*)::int from leads where team_id = ${teamId} and linkedin = any(${importedIds}::text[]))
        as stored,
      (select count(*)::int from file_imports where team_id = ${teamId} and status = 'done'
         and uuid = any(${[...state.imports.keys()]}::uuid[])) as done
  `.execute(db);
  checks.push({
    name: 'every accepted import finished, no row lost',
    ok: imported[0]!.stored === importedIds.length && imported[0]!.done === state.imports.size,
    detail: `${imported[0]!.done} of ${state.imports.size} imports done; ${imported[0]!.stored} of ${importedIds.length} rows stored`,
  });

  // A cut request is looked up as a client would (by contact and text) before it counts as lost.
  const found: string[] = [];
  for (const { lead, text } of state.unsure) {
    const row = await db
      .selectFrom('linkedin_messages')
      .select('uuid')
      .where('team_id', '=', teamId)
      .where('lead_uuid', '=', lead)
      .where('text', '=', text)
      .executeTakeFirst();
    if (row) found.push(row.uuid);
  }
  const noted = [...state.messages, ...found];
  const { rows: messages } = await sql<{ status: string; n: number; unexplained: number }>`
    select status, count(*)::int as n, count(*) filter (where status = 'failed' and fail_reason is null)::int
      as unexplained
    from linkedin_messages
    where team_id = ${teamId} and uuid = any(${noted}::uuid[]) group by status order by status
  `.execute(db);
  const { rows: network } = await sql<{ n: number }>`
    select count(*)::int as n from sandbox_linkedin_actions
    where team_id = ${teamId} and action = 'linkedin_send_connection_request'
      and sender_profile_uuid = ${options.noteSenderUuid}
  `.execute(db);
  const limited = network[0]!.n >= options.invitationLimit;
  const count = (status: string) => messages.find((m) => m.status === status)?.n ?? 0;
  checks.push({
    name: 'every hand-queued LinkedIn note sent, failed with a reason or waiting on the limit',
    ok:
      count('done') + count('failed') + (limited ? count('new') : 0) === noted.length &&
      messages.every((m) => m.unexplained === 0),
    detail: `${noted.length} accepted (${found.length} of ${state.unsure.length} cut requests found): ${
      messages.map((m) => `${m.status} ${m.n}`).join(', ') || 'none'
    }; ${network[0]!.n} invitations sent by their sender, limit ${options.invitationLimit}`,
  });

  const { rows: twice } = await sql<{ n: number; sent: number }>`
    select count(*) filter (where c > 1)::int as n, coalesce(sum(c), 0)::int as sent from (
      select count(*) as c from sandbox_linkedin_actions where team_id = ${teamId} group by lead_uuid, action
    ) a
  `.execute(db);
  checks.push({
    name: 'no action sent twice (sandbox network)',
    ok: twice[0]!.n === 0,
    detail: `${twice[0]!.sent} invitations received by the network, ${twice[0]!.n} contacts got one twice`,
  });

  // A running enrollment waits for something it names: a time (next_run_at, not long overdue), or a
  // channel action with its task still open for the dispatcher (sender limits and schedules hold those
  // back on purpose). Stuck is anything else: nothing to wait for, a time long past, an action without
  // its task.
  const { rows: enrolled } = await sql<{ status: string; reason: string | null; n: number; stuck: number }>`
    select fl.status, fl.reason, count(*)::int as n,
      count(*) filter (where fl.status = 'in_progress' and (
        (fl.next_run_at is null and fl.wait is null)
        or fl.next_run_at < now() - interval '2 minutes'
        or (fl.next_run_at is null and fl.wait->>'kind' = 'action' and not exists (
          select 1 from tasks t
          where t.team_id = fl.team_id and t.flow_lead_uuid = fl.uuid and t.status = 'in_progress'))
      ))::int as stuck
    from flow_leads fl where fl.team_id = ${teamId} group by fl.status, fl.reason
  `.execute(db);
  const stuck = enrolled.reduce(
    (sum, r) => sum + r.stuck + (r.status === 'paused' && r.reason === null ? r.n : 0),
    0,
  );
  checks.push({
    name: 'no enrollment stuck without a reason',
    ok: stuck === 0,
    detail: `${stuck} stuck; ${
      enrolled.map((r) => `${r.status}${r.reason ? `/${r.reason}` : ''}: ${r.n}`).join(', ') || 'none'
    }`,
  });

  // Checked as the receiver would have when it arrived: a 30-minute run's early deliveries are older than
  // the library's 5-minute timestamp tolerance by the time the checks run.
  const webhook = new Webhook(options.webhookSecret);
  let unsigned = 0;
  const delivered = new Set<string>();
  for (const request of options.hooks) {
    const payload = verifiedAtReceipt(webhook, request) as { contact?: { uuid?: string } } | null;
    if (payload === null) unsigned += 1;
    else if (payload.contact?.uuid) delivered.add(payload.contact.uuid);
  }
  const { rows: sent } = await sql<{ lead_uuid: string }>`
    select distinct lead_uuid from sandbox_linkedin_actions
    where team_id = ${teamId} and action = 'linkedin_send_connection_request'
  `.execute(db);
  const missing = sent.filter((r) => !delivered.has(r.lead_uuid));
  checks.push({
    name: 'every webhook event delivered at least once, signed',
    ok: missing.length === 0 && unsigned === 0,
    detail: `${delivered.size} of ${sent.length} invitation events delivered (${options.hooks.length} requests, ${unsigned} badly signed)`,
  });

  const { rows: counts } = await sql<{
    leads: number;
    lead_deltas: number;
    fl: number;
    fl_deltas: number;
    tasks: number;
    task_deltas: number;
  }>`
    select
      (select count(*)::int from leads where team_id = ${teamId}) as leads,
      (select coalesce(sum(delta), 0)::int from lead_count_deltas where team_id = ${teamId}) as lead_deltas,
      (select count(*)::int from flow_leads where team_id = ${teamId}) as fl,
      (select coalesce(sum(delta), 0)::int from flow_lead_count_deltas where team_id = ${teamId}) as fl_deltas,
      (select count(*)::int from tasks where team_id = ${teamId}) as tasks,
      (select coalesce(sum(delta), 0)::int from task_count_deltas where team_id = ${teamId}) as task_deltas
  `.execute(db);
  const c = counts[0]!;
  checks.push({
    name: 'counters equal recounts',
    ok: c.leads === c.lead_deltas && c.fl === c.fl_deltas && c.tasks === c.task_deltas,
    detail: `contacts ${c.lead_deltas}/${c.leads}, enrollments ${c.fl_deltas}/${c.fl}, tasks ${c.task_deltas}/${c.tasks} (counter/recount)`,
  });
  return checks;
}

/** The payload when the request was signed with the secret and sent at most 5 minutes before it arrived. */
function verifiedAtReceipt(webhook: Webhook, request: ReceivedRequest): unknown {
  const id = request.headers['webhook-id'];
  const timestamp = Number(request.headers['webhook-timestamp']);
  if (!id || !Number.isFinite(timestamp) || Math.abs(request.receivedAt / 1000 - timestamp) > 300)
    return null;
  const expected = webhook.sign(id, new Date(timestamp * 1000), request.body);
  const given = (request.headers['webhook-signature'] ?? '').split(' ');
  return given.includes(expected) ? JSON.parse(request.body) : null;
}
