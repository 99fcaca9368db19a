// What a node visit reads besides its enrollment: the schedule its steps are planned in and the text an
// action node renders. The batch (run/batch.ts) and the flow preview (engine/preview) share them.
import { isValidTimeZone, type Schedule } from '../../../lib/schedule.js';
import type { ComposedAction, PreparedRender } from '../render.js';
import type { EngineNode } from '../version.js';
import type { SenderRow, Work } from './work.js';

/** The schedule a step is planned in and its zone: the sender's, the contact's zone or the flow's. */
export function scheduleFor(
  flow: Work['flow'],
  sender: SenderRow | undefined,
  lead: Work['lead'],
): { schedule: Schedule; zone: string } {
  if (flow?.use_sender_schedule && sender) {
    return { schedule: sender.schedule, zone: sender.schedule.timezone };
  }
  const schedule = flow?.schedule ?? { timezone: 'UTC', use_lead_timezone: false, timeblocks: [] };
  const leadZone = lead?.timezone;
  const zone = schedule.use_lead_timezone && isValidTimeZone(leadZone) ? leadZone : schedule.timezone;
  return { schedule, zone };
}

/** An action node: its text and subject, when it has them (its payload passed its schema). */
export type RenderedNode = EngineNode<{ template?: string; subject?: string }>;

/** An action node's text and subject for the work's contact and sender, seeded per enrollment step. */
export function renderAction(prepared: PreparedRender, work: Work, node: RenderedNode): ComposedAction {
  const seed = `${work.fl.uuid}:${node.id}`;
  const text = prepared.render(
    node.payload.template ?? null,
    work.fl.lead_uuid,
    work.fl.sender_profile_uuid,
    seed,
  );
  const subject =
    node.payload.subject !== undefined
      ? prepared.render(node.payload.subject, work.fl.lead_uuid, work.fl.sender_profile_uuid, `${seed}:s`)
      : { text: null, missing: [] as string[], error: undefined as string | undefined };
  const error = text.error
    ? `payload.template: ${text.error}`
    : subject.error
      ? `payload.subject: ${subject.error}`
      : undefined;
  return {
    text: text.text,
    subject: subject.text,
    missing: [...new Set([...text.missing, ...subject.missing])],
    ...(error ? { error } : {}),
  };
}
