// What the outside world tells about a contact (an accepted invitation, a reply, an open, a click)
// enters here, whichever channel learned it. In one transaction a signal is stored once per external
// key (retries and re-syncs are harmless), wakes the triggers waiting for it, applies the stop rule
// (a reply ends the contact's running enrollments with that sender), counts the conversion on the
// node that earned it, and records the event for webhooks.
import { sql } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { REPLY_KINDS, signalOf } from '../channels/channel-specs.js';
import { endEnrollments } from '../enrollments/enrollment-signals.js';
import { type EventInput, emitEvents } from '../events/emit.js';
import { senderObject } from '../events/event-objects.js';
import type { SignalKind } from './engine.tables.js';
import { triggersFiredBy } from './nodes/triggers.js';

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
    -- A join, not exists (...): Citus refuses a correlated subquery beside a set-returning function.
    join leads l on l.team_id = ${teamId} and l.uuid = v.lead_uuid
    on conflict (team_id, kind, external_key) where external_key is not null do nothing
    returning lead_uuid, sender_profile_uuid, kind, occurred_at, payload
  `.execute(trx);
  await applySignals(trx, teamId, now, inserted.rows);
  return inserted.rows.length;
}

type StoredSignal = {
  lead_uuid: string;
  sender_profile_uuid: string | null;
  kind: SignalKind;
  occurred_at: Date;
  payload: Record<string, unknown> | null;
};

type Enrollment = { uuid: string; flow_uuid: string; lead_uuid: string; sender_profile_uuid: string | null };

/** Whether an enrollment is the signal's: same contact, and same sender when the signal names one. */
const concerns = (signal: StoredSignal) => (e: Enrollment) =>
  e.lead_uuid === signal.lead_uuid &&
  (signal.sender_profile_uuid === null || e.sender_profile_uuid === signal.sender_profile_uuid);

/**
 * Applies new signals set-based (a sync may bring a thousand replies at once): per kind one statement
 * wakes the enrollments waiting at a trigger it fires, one statement finds what the stop rule ends, one
 * ends them, one counts the conversions, one records the events.
 */
async function applySignals(trx: Executor, teamId: number, now: Date, signals: StoredSignal[]) {
  if (signals.length === 0) return;
  // Wake the enrollments waiting at a trigger these signals fire: they take branch 1 when claimed.
  const wokenByKind = new Map<SignalKind, Enrollment[]>();
  for (const kind of new Set(signals.map((s) => s.kind))) {
    const triggers = triggersFiredBy(kind);
    if (triggers.length === 0) continue;
    const targets = [
      ...new Map(
        signals
          .filter((s) => s.kind === kind)
          .map((s) => [
            `${s.lead_uuid}:${s.sender_profile_uuid}`,
            { lead_uuid: s.lead_uuid, sender_uuid: s.sender_profile_uuid },
          ]),
      ).values(),
    ];
    const woken = await sql<Enrollment>`
      update flow_leads fl set wait = fl.wait || '{"happened": true}'::jsonb, next_run_at = ${now}, updated_at = ${now},
        claim_token = fl.claim_token + 1, lease_until = null
      from flow_versions fv, jsonb_array_elements(fv.nodes) n,
        jsonb_to_recordset(${JSON.stringify(targets)}::jsonb) as s(lead_uuid uuid, sender_uuid uuid)
      where fl.team_id = ${teamId} and fl.lead_uuid = s.lead_uuid and fl.status = 'in_progress'
        and (s.sender_uuid is null or fl.sender_profile_uuid = s.sender_uuid) and fl.wait ->> 'kind' = 'trigger'
        and fv.team_id = fl.team_id and fv.uuid = fl.flow_version_uuid
        and (n ->> 'id')::int = fl.flow_node_id and n ->> 'type' = any(${triggers}::text[])
      returning fl.uuid, fl.flow_uuid, fl.lead_uuid, fl.sender_profile_uuid
    `.execute(trx);
    wokenByKind.set(kind, woken.rows);
  }

  // The stop rule: a reply ends the contact's other running enrollments with that sender, unless the
  // last message of that enrollment asked to go on (stop_on_reply_level "never").
  let stopped: Enrollment[] = [];
  const replies = signals.filter((s) => REPLY_KINDS.includes(s.kind));
  if (replies.length > 0) {
    const wokenByReply = REPLY_KINDS.flatMap((kind) => wokenByKind.get(kind) ?? []).map((e) => e.uuid);
    const targets = [
      ...new Map(
        replies.map((s) => [
          `${s.lead_uuid}:${s.sender_profile_uuid}`,
          { lead_uuid: s.lead_uuid, sender_uuid: s.sender_profile_uuid },
        ]),
      ).values(),
    ];
    const candidates = await sql<Enrollment>`
      select distinct fl.uuid, fl.flow_uuid, fl.lead_uuid, fl.sender_profile_uuid from flow_leads fl
      join jsonb_to_recordset(${JSON.stringify(targets)}::jsonb) as s(lead_uuid uuid, sender_uuid uuid)
        on fl.lead_uuid = s.lead_uuid and (s.sender_uuid is null or fl.sender_profile_uuid = s.sender_uuid)
      where fl.team_id = ${teamId} and fl.status in ('in_progress', 'paused')
        and fl.uuid <> all(${wokenByReply}::uuid[])
        and coalesce((
          select t.payload ->> 'stop_on_reply_level' from tasks t
          where t.team_id = ${teamId} and t.flow_lead_uuid = fl.uuid
            and t.type in ('linkedin_send_message', 'linkedin_send_inmail', 'email_send_message')
          order by t.step desc limit 1
        ), 'always') <> 'never'
    `.execute(trx);
    stopped = candidates.rows;
    if (stopped.length > 0) {
      await endEnrollments(trx, teamId, { uuids: stopped.map((e) => e.uuid) }, 'finished', 'replied', now);
    }
  }

  for (const signal of signals)
    if (signalOf(signal.kind)?.stopsActions) await stopChannelSteps(trx, teamId, signal, now);
  await countConversions(trx, teamId, signals, now);
  await emitSignalEvents(
    trx,
    teamId,
    signals.map((signal) => ({
      signal,
      enrollments: [
        ...(wokenByKind.get(signal.kind) ?? []).filter(concerns(signal)),
        ...(REPLY_KINDS.includes(signal.kind) ? stopped.filter(concerns(signal)) : []),
      ],
    })),
    now,
  );
}

/** Credits each conversion to the latest done action of the matching type in each enrollment (one statement). */
async function countConversions(trx: Executor, teamId: number, signals: StoredSignal[], now: Date) {
  const rows = signals.flatMap((signal) => {
    const conversion = signalOf(signal.kind)?.conversion;
    return conversion
      ? [
          {
            lead_uuid: signal.lead_uuid,
            sender_uuid: signal.sender_profile_uuid,
            kind: conversion.kind,
            types: conversion.types.join(','),
          },
        ]
      : [];
  });
  if (rows.length === 0) return;
  // Found first, then inserted: Citus plans an INSERT ... SELECT apart from a plain SELECT, and refuses
  // this one (a lateral join by the team value rather than on team_id).
  const { rows: conversions } = await sql<Record<string, unknown>>`
    select fl.flow_uuid, t.flow_node_id, fl.contact_source_id, fl.sender_profile_uuid,
      case t.type when 'linkedin_send_connection_request' then 'linkedin_connection_request'
        when 'linkedin_send_message' then 'linkedin_message' when 'linkedin_send_inmail' then 'linkedin_inmail'
        else 'email' end as channel,
      v.kind
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(lead_uuid uuid, sender_uuid uuid, kind text, types text)
    join flow_leads fl on fl.team_id = ${teamId} and fl.lead_uuid = v.lead_uuid
      and (v.sender_uuid is null or fl.sender_profile_uuid = v.sender_uuid)
    cross join lateral (
      select t.flow_node_id, t.type from tasks t
      where t.team_id = ${teamId} and t.flow_lead_uuid = fl.uuid and t.status = 'closed'
        and t.type = any(string_to_array(v.types, ','))
      order by t.step desc limit 1
    ) t
  `.execute(trx);
  if (conversions.length === 0) return;
  await sql`
    insert into flow_conversion_deltas (team_id, flow_uuid, flow_node_id, contact_source_id, sender_profile_uuid,
      channel, kind, delta, occurred_at)
    select ${teamId}, c.flow_uuid, c.flow_node_id, c.contact_source_id, c.sender_profile_uuid, c.channel, c.kind, 1, ${now}
    from jsonb_to_recordset(${JSON.stringify(conversions)}::jsonb)
      as c(flow_uuid uuid, flow_node_id integer, contact_source_id integer, sender_profile_uuid uuid, channel text,
        kind text)
  `.execute(trx);
}

/**
 * Signals after which the contact gets no more of a channel (a bounce, an unsubscribe: e-mail): the
 * contact's planned (not yet taken) actions of that channel are skipped; their enrollments move on.
 */
async function stopChannelSteps(trx: Executor, teamId: number, signal: StoredSignal, now: Date) {
  const stop = signalOf(signal.kind);
  const code = stop?.stopsActions;
  if (!stop || !code) return;
  await sql`
    with skipped as (
      update tasks t set status = 'skipped', executed_at = ${now}, automation_error_code = ${code},
        error_msg = ${`${code}: the contact gets no more e-mail`}, schedule_at = null, updated_at = ${now}
      where t.team_id = ${teamId} and t.lead_uuid = ${signal.lead_uuid} and ${stop.spec.taskTypes}
        and t.status = 'in_progress' and t.automation = 'auto' and t.taken_to_execute_at is null
      returning t.flow_lead_uuid
    )
    update flow_leads fl set next_run_at = ${now}, updated_at = ${now}
    from skipped where fl.team_id = ${teamId} and fl.uuid = skipped.flow_lead_uuid and fl.status = 'in_progress'
  `.execute(trx);
}

async function emitSignalEvents(
  trx: Executor,
  teamId: number,
  items: Array<{ signal: StoredSignal; enrollments: Enrollment[] }>,
  now: Date,
) {
  const named = items.filter((item) => signalOf(item.signal.kind)?.event);
  if (named.length === 0) return;
  const flowOf = (item: (typeof named)[number]) => item.enrollments.find((e) => e.flow_uuid)?.flow_uuid;
  const flowUuids = [...new Set(named.map(flowOf).filter((uuid): uuid is string => Boolean(uuid)))];
  const flows = new Map(
    (flowUuids.length > 0
      ? await trx
          .selectFrom('flows')
          .select(['uuid', 'name', 'status', 'priority'])
          .where('team_id', '=', teamId)
          .where('uuid', 'in', flowUuids)
          .execute()
      : []
    ).map((f) => [f.uuid, f]),
  );
  const senderUuids = [...new Set(named.map((item) => item.signal.sender_profile_uuid))];
  const senders = new Map(
    await Promise.all(
      senderUuids.map(async (uuid) => [uuid, await senderObject(trx, teamId, uuid)] as const),
    ),
  );
  await emitEvents(
    trx,
    teamId,
    named.map((item) => {
      const { signal } = item;
      const flowUuid = flowOf(item);
      return {
        name: signalOf(signal.kind)?.event as EventInput['name'],
        leadUuid: signal.lead_uuid,
        sender_profile: senders.get(signal.sender_profile_uuid) ?? null,
        automation: flowUuid ? (flows.get(flowUuid) ?? null) : null,
        occurredAt: now,
        ...signalObjects(signal),
      };
    }),
  );
}

function signalObjects(signal: StoredSignal): Partial<EventInput> {
  const payload = signal.payload ?? {};
  const at = new Date(signal.occurred_at).toISOString();
  if (signal.kind.startsWith('email_') || signal.kind === 'link_clicked') {
    return { email: (payload.email as EventInput['email'] | undefined) ?? null };
  }
  if (signal.kind === 'connection_accepted') {
    return {
      linkedin_connection: {
        full_name: (payload.full_name as string | undefined) ?? null,
        nickname: (payload.nickname as string | undefined) ?? null,
        connected_at: at,
      },
    };
  }
  return {
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
}
