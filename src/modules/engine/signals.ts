// What the outside world tells about a contact (an accepted invitation, a reply, an open, a click)
// enters here, whichever channel learned it. In one transaction a signal is stored once per external
// key (retries and re-syncs are harmless), wakes the triggers waiting for it, applies the stop rule
// (a reply ends the contact's running enrollments with that sender), counts the conversion on the
// node that earned it, and records the event for webhooks.
import { type SqlBool, sql } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { type EventInput, emitEvents } from '../events/emit.js';
import type { SignalKind } from './engine.tables.js';
import { endEnrollments } from './enrollment-signals.js';
import { senderObject } from './event-objects.js';

export type IncomingSignal = {
  kind: SignalKind;
  leadUuid: string;
  senderProfileUuid: string | null;
  occurredAt: Date;
  /** The channel's id of what happened; a signal with a key already stored is ignored. */
  externalKey?: string;
  /** For replies: the message (text, subject, linkedin_type...). */
  payload?: Record<string, unknown>;
};

const REPLY_KINDS: SignalKind[] = ['linkedin_replied', 'linkedin_inmail_replied', 'email_replied'];

/** The trigger node types each signal fires. */
const TRIGGERS: Partial<Record<SignalKind, string[]>> = {
  connection_accepted: ['trigger_linkedin_connection_request_accepted'],
  linkedin_replied: ['trigger_message_replied'],
  linkedin_inmail_replied: ['trigger_message_replied'],
  email_replied: ['trigger_message_replied'],
  email_opened: ['trigger_email_opened'],
  link_clicked: ['trigger_link_clicked'],
};

/** Conversion kind and the action types whose node earns it. */
const CONVERSIONS: Partial<Record<SignalKind, { kind: string; types: string[] }>> = {
  connection_accepted: { kind: 'accepted', types: ['linkedin_send_connection_request'] },
  linkedin_replied: { kind: 'replied', types: ['linkedin_send_message', 'linkedin_send_connection_request'] },
  linkedin_inmail_replied: { kind: 'replied', types: ['linkedin_send_inmail'] },
  email_replied: { kind: 'replied', types: ['email_send_message'] },
  email_opened: { kind: 'opened', types: ['email_send_message'] },
  link_clicked: { kind: 'clicked', types: ['email_send_message'] },
  email_bounced: { kind: 'bounced', types: ['email_send_message'] },
};

export async function ingestSignals(db: Database, teamId: number, now: Date, signals: IncomingSignal[]) {
  if (signals.length === 0) return 0;
  return db.transaction().execute((trx) => ingestSignalsIn(trx, teamId, now, signals));
}

/** As ingestSignals, inside the caller's transaction. Returns the number of new signals. */
export async function ingestSignalsIn(trx: Executor, teamId: number, now: Date, signals: IncomingSignal[]) {
  if (signals.length === 0) return 0;
  const rows = signals.map((s) => ({
    lead_uuid: s.leadUuid,
    sender_profile_uuid: s.senderProfileUuid,
    kind: s.kind,
    occurred_at: s.occurredAt,
    external_key: s.externalKey ?? null,
    payload: s.payload ?? null,
  }));
  const inserted = await sql<{
    lead_uuid: string;
    sender_profile_uuid: string | null;
    kind: SignalKind;
    occurred_at: Date;
    payload: Record<string, unknown> | null;
  }>`
    insert into lead_signals (team_id, lead_uuid, sender_profile_uuid, kind, occurred_at, external_key, payload)
    select ${teamId}, v.lead_uuid, v.sender_profile_uuid, v.kind, v.occurred_at, v.external_key, v.payload
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(lead_uuid uuid, sender_profile_uuid uuid,
      kind text, occurred_at timestamptz, external_key text, payload jsonb)
    where exists (select 1 from leads l where l.team_id = ${teamId} and l.uuid = v.lead_uuid)
    on conflict (team_id, kind, external_key) where external_key is not null do nothing
    returning lead_uuid, sender_profile_uuid, kind, occurred_at, payload
  `.execute(trx);
  for (const signal of inserted.rows) await applySignal(trx, teamId, now, signal);
  return inserted.rows.length;
}

type StoredSignal = {
  lead_uuid: string;
  sender_profile_uuid: string | null;
  kind: SignalKind;
  occurred_at: Date;
  payload: Record<string, unknown> | null;
};

function sameSender(senderUuid: string | null) {
  return senderUuid ? sql<SqlBool>`fl.sender_profile_uuid = ${senderUuid}` : sql<SqlBool>`true`;
}

async function applySignal(trx: Executor, teamId: number, now: Date, signal: StoredSignal) {
  const lead = signal.lead_uuid;
  const triggers = TRIGGERS[signal.kind] ?? [];
  // Wake the enrollments waiting at a trigger this signal fires: they take branch 1 when claimed.
  const woken = await sql<{ uuid: string; flow_uuid: string }>`
    update flow_leads fl set wait = fl.wait || '{"happened": true}'::jsonb, next_run_at = ${now}, updated_at = ${now},
      claim_token = fl.claim_token + 1, lease_until = null
    from flow_versions fv, jsonb_array_elements(fv.nodes) n
    where fl.team_id = ${teamId} and fl.lead_uuid = ${lead} and fl.status = 'in_progress'
      and ${sameSender(signal.sender_profile_uuid)} and fl.wait ->> 'kind' = 'trigger'
      and fv.team_id = fl.team_id and fv.uuid = fl.flow_version_uuid
      and (n ->> 'id')::int = fl.flow_node_id and n ->> 'type' = any(${triggers}::text[])
    returning fl.uuid, fl.flow_uuid
  `.execute(trx);

  // The stop rule: a reply ends the contact's other running enrollments with that sender, unless the
  // last message of that enrollment asked to go on (stop_on_reply_level "never").
  let stopped: string[] = [];
  if (REPLY_KINDS.includes(signal.kind)) {
    const wokenUuids = woken.rows.map((r) => r.uuid);
    const candidates = await sql<{ uuid: string; flow_uuid: string }>`
      select fl.uuid, fl.flow_uuid from flow_leads fl
      where fl.team_id = ${teamId} and fl.lead_uuid = ${lead} and fl.status in ('in_progress', 'paused')
        and ${sameSender(signal.sender_profile_uuid)} and fl.uuid <> all(${wokenUuids}::uuid[])
        and coalesce((
          select t.payload ->> 'stop_on_reply_level' from tasks t
          where t.team_id = fl.team_id and t.flow_lead_uuid = fl.uuid
            and t.type in ('linkedin_send_message', 'linkedin_send_inmail', 'email_send_message')
          order by t.step desc limit 1
        ), 'always') <> 'never'
    `.execute(trx);
    stopped = candidates.rows.map((r) => r.uuid);
    if (stopped.length > 0) await endEnrollments(trx, teamId, { uuids: stopped }, 'finished', 'replied', now);
  }

  await stopEmailSteps(trx, teamId, signal, now);
  await countConversion(trx, teamId, signal, now);
  await emitSignalEvent(
    trx,
    teamId,
    signal,
    [...woken.rows, ...stopped.map((uuid) => ({ uuid, flow_uuid: '' }))],
    now,
  );
}

/** Credits the conversion to the latest done action of the matching type in each enrollment. */
async function countConversion(trx: Executor, teamId: number, signal: StoredSignal, now: Date) {
  const conversion = CONVERSIONS[signal.kind];
  if (!conversion) return;
  await sql`
    insert into flow_conversion_deltas (team_id, flow_uuid, flow_node_id, contact_source_id, channel, kind, delta, occurred_at)
    select ${teamId}, fl.flow_uuid, t.flow_node_id, fl.contact_source_id,
      case t.type when 'linkedin_send_connection_request' then 'linkedin_connection_request'
        when 'linkedin_send_message' then 'linkedin_message' when 'linkedin_send_inmail' then 'linkedin_inmail'
        else 'email' end,
      ${conversion.kind}, 1, ${now}
    from flow_leads fl
    cross join lateral (
      select t.flow_node_id, t.type from tasks t
      where t.team_id = fl.team_id and t.flow_lead_uuid = fl.uuid and t.status = 'closed'
        and t.type = any(${conversion.types}::text[])
      order by t.step desc limit 1
    ) t
    where fl.team_id = ${teamId} and fl.lead_uuid = ${signal.lead_uuid} and ${sameSender(signal.sender_profile_uuid)}
  `.execute(trx);
}

const SIGNAL_EVENTS: Partial<Record<SignalKind, EventInput['name']>> = {
  connection_accepted: 'contact_accepted_linkedin_connection_request',
  linkedin_replied: 'contact_replied_linkedin_message',
  linkedin_inmail_replied: 'contact_replied_linkedin_inmail',
  email_replied: 'contact_replied_email',
  email_opened: 'contact_opened_email',
  link_clicked: 'contact_clicked_email',
  email_unsubscribed: 'contact_unsubscribed_email',
  email_bounced: 'email_bounced',
};

/** Signals after which the contact gets no more e-mail: their planned e-mail steps are skipped. */
const EMAIL_STOPS: Partial<Record<SignalKind, string>> = {
  email_bounced: 'email_bounced',
  email_unsubscribed: 'email_unsubscribed',
};

/** Skips the contact's planned (not yet taken) e-mail steps; their enrollments move on. */
async function stopEmailSteps(trx: Executor, teamId: number, signal: StoredSignal, now: Date) {
  const code = EMAIL_STOPS[signal.kind];
  if (!code) return;
  await sql`
    with skipped as (
      update tasks t set status = 'skipped', executed_at = ${now}, automation_error_code = ${code},
        error_msg = ${`${code}: the contact gets no more e-mail`}, schedule_at = null, updated_at = ${now}
      where t.team_id = ${teamId} and t.lead_uuid = ${signal.lead_uuid} and t.type = 'email_send_message'
        and t.status = 'in_progress' and t.automation = 'auto' and t.taken_to_execute_at is null
      returning t.flow_lead_uuid
    )
    update flow_leads fl set next_run_at = ${now}, updated_at = ${now}
    from skipped where fl.team_id = ${teamId} and fl.uuid = skipped.flow_lead_uuid and fl.status = 'in_progress'
  `.execute(trx);
}

async function emitSignalEvent(
  trx: Executor,
  teamId: number,
  signal: StoredSignal,
  enrollments: Array<{ uuid: string; flow_uuid: string }>,
  now: Date,
) {
  const name = SIGNAL_EVENTS[signal.kind];
  if (!name) return;
  const flowUuid = enrollments.find((e) => e.flow_uuid)?.flow_uuid;
  const automation = flowUuid
    ? ((await trx
        .selectFrom('flows')
        .select(['uuid', 'name', 'status', 'priority'])
        .where('team_id', '=', teamId)
        .where('uuid', '=', flowUuid)
        .executeTakeFirst()) ?? null)
    : null;
  const sender = await senderObject(trx, teamId, signal.sender_profile_uuid);
  const payload = signal.payload ?? {};
  const at = signal.occurred_at.toISOString();
  const objects =
    signal.kind.startsWith('email_') || signal.kind === 'link_clicked'
      ? { email: (payload.email as EventInput['email'] | undefined) ?? null }
      : signal.kind === 'connection_accepted'
        ? {
            linkedin_connection: {
              full_name: (payload.full_name as string | undefined) ?? null,
              nickname: (payload.nickname as string | undefined) ?? null,
              connected_at: at,
            },
          }
        : {
            linkedin_message: {
              uuid: (payload.message_uuid as string | undefined) ?? newId(),
              subject: (payload.subject as string | undefined) ?? null,
              text: (payload.text as string | undefined) ?? null,
              type: 'inbox',
              status: 'done',
              linkedin_type: (payload.linkedin_type as string | undefined) ?? 'MEMBER_TO_MEMBER',
              sent_at: at,
              read_at: null,
            },
          };
  await emitEvents(trx, teamId, [
    { name, leadUuid: signal.lead_uuid, sender_profile: sender, automation, occurredAt: now, ...objects },
  ]);
}
