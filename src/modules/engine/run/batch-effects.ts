// The effects a batch's nodes leave for the commit: mass actions on contacts, holds released, other
// enrollments ended, custom webhooks, enrichments queued, contacts sent to other flows.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { AppError } from '../../../lib/errors.js';
import { queueLeadsFromFlow } from '../../enrichment/enrichment.flow.js';
import {
  contactsWhere,
  type EnrollmentTarget,
  enrollContacts,
  enrollmentTarget,
} from '../../enrollments/enroll.js';
import { endEnrollments, releaseHolds } from '../../enrollments/enrollment-signals.js';
import { emitEvents } from '../../events/emit.js';
import { EVENT_CATALOG, isEventName } from '../../events/events.catalog.js';
import type { PreparedAction } from '../../leads/leads.mass-actions.js';
import { deliverEventsTo } from '../../webhooks/fan-out.js';
import type { Work as WorkType } from './work.js';

export async function applyEffects(
  trx: Executor,
  teamId: number,
  works: WorkType[],
  prepared: Map<string, PreparedAction>,
  now: Date,
) {
  const effects = works.flatMap((w) => w.effects);
  if (effects.length === 0) return;
  // Per action and flow, so the contacts' activities name the flow that changed them.
  const massGroups = new Map<string, { key: string; flowUuid: string; leads: string[] }>();
  for (const work of works) {
    for (const effect of work.effects) {
      if (effect.kind !== 'mass_action') continue;
      const group = `${effect.key}|${work.fl.flow_uuid}`;
      const entry = massGroups.get(group) ?? { key: effect.key, flowUuid: work.fl.flow_uuid, leads: [] };
      entry.leads.push(effect.leadUuid);
      massGroups.set(group, entry);
    }
  }
  for (const { key, flowUuid, leads } of massGroups.values()) {
    const action = prepared.get(key);
    if (action)
      await action.apply(trx, teamId, sql<SqlBool>`l.uuid = any(${leads}::uuid[])`, { flowUuid, at: now });
  }
  const pairs = (kind: string) =>
    effects.filter((e) => e.kind === kind) as Array<{
      leadUuid: string;
      except: string;
      flowUuids?: string[] | null;
    }>;
  const releases = pairs('release_holds');
  if (releases.length > 0) {
    await releaseHolds(trx, teamId, {
      where: sql<SqlBool>`fl.lead_uuid = any(${releases.map((r) => r.leadUuid)}::uuid[]) and fl.uuid <> all(${releases.map((r) => r.except)}::uuid[])`,
    });
  }
  for (const effect of pairs('end_others')) {
    const scope: RawBuilder<SqlBool> = effect.flowUuids
      ? sql<SqlBool>`fl.flow_uuid = any(${effect.flowUuids}::uuid[])`
      : sql<SqlBool>`true`;
    await endEnrollments(
      trx,
      teamId,
      { where: sql<SqlBool>`fl.lead_uuid = ${effect.leadUuid} and fl.uuid <> ${effect.except} and ${scope}` },
      'canceled',
      'removed_by_automation',
    );
  }
  await triggerCustomWebhooks(trx, teamId, works);
  const enrichments = effects.flatMap((e) => (e.kind === 'enqueue_enrichment' ? [e] : []));
  if (enrichments.length > 0) await queueLeadsFromFlow(trx, teamId, enrichments, now);
  await sendToFlows(
    trx,
    teamId,
    effects.flatMap((e) => (e.kind === 'send_to_flow' ? [e] : [])),
  );
}

/**
 * gs_send_to_flow: contacts enter their target flows through its first contact source, by the flows
 * module's enrolment (the one way in: skips contacts already in the flow, never blacklisted ones). A
 * target archived or deleted since the node was planned takes nobody.
 */
async function sendToFlows(
  trx: Executor,
  teamId: number,
  sends: Array<{ leadUuid: string; flowUuid: string }>,
) {
  const byFlow = new Map<string, string[]>();
  for (const send of sends) byFlow.set(send.flowUuid, [...(byFlow.get(send.flowUuid) ?? []), send.leadUuid]);
  for (const [flowUuid, leadUuids] of byFlow) {
    let target: EnrollmentTarget;
    try {
      target = await enrollmentTarget(trx, teamId, flowUuid, 1);
    } catch (error) {
      if (error instanceof AppError) continue;
      throw error;
    }
    await enrollContacts(
      trx,
      teamId,
      target,
      'flow',
      contactsWhere(teamId, sql<SqlBool>`l.uuid = any(${leadUuids}::uuid[])`),
    );
  }
}

/**
 * gs_trigger_custom_webhook: the contact's event (the webhook's own event name, with the automation)
 * is recorded without fan-out and delivered to that webhook only, signed and retried like any other. It
 * reports nothing that happened, so it stays off the contact's timeline.
 */
async function triggerCustomWebhooks(trx: Executor, teamId: number, works: WorkType[]) {
  const calls = works.flatMap((w) =>
    w.effects.flatMap((e) => (e.kind === 'custom_webhook' ? [{ work: w, webhookUuid: e.webhookUuid }] : [])),
  );
  if (calls.length === 0) return;
  const webhooks = await trx
    .selectFrom('webhooks')
    .select(['uuid', 'event'])
    .where('team_id', '=', teamId)
    .where('uuid', 'in', [...new Set(calls.map((c) => c.webhookUuid))])
    .execute();
  const eventOf = new Map(webhooks.map((w) => [w.uuid, w.event]));
  for (const call of calls) {
    const event = eventOf.get(call.webhookUuid);
    if (!event || !isEventName(event) || !EVENT_CATALOG[event].contact) continue;
    const flow = call.work.flow;
    const [uuid] = await emitEvents(
      trx,
      teamId,
      [
        {
          name: event,
          leadUuid: call.work.fl.lead_uuid,
          automation: flow
            ? { uuid: flow.uuid, name: flow.name, status: flow.status, priority: flow.priority }
            : null,
        },
      ],
      { fanOut: false, timeline: false },
    );
    if (uuid) await deliverEventsTo(trx, teamId, call.webhookUuid, [uuid]);
  }
}
