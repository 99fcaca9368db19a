// What a channel is asked to do: the request of an action task, with the contact's identifiers.
import type { Executor } from '../../../db/database.js';
import type { ActionLead, ActionRequest, ActionType } from '../../channels/driver.js';
import type { TaskRow } from './work.js';

/** The contact's columns a channel request carries. */
const LEAD_FIELDS = [
  'uuid',
  'first_name',
  'last_name',
  'name',
  'ln_member_id',
  'ln_id',
  'sn_id',
  'linkedin',
  'work_email',
  'personal_email',
] as const;

/** The contacts a channel acts on (those that still exist), by uuid. */
export async function actionLeads(
  db: Executor,
  teamId: number,
  uuids: string[],
): Promise<Map<string, ActionLead>> {
  const leads = await db
    .selectFrom('leads')
    .select(LEAD_FIELDS)
    .where('team_id', '=', teamId)
    .where('uuid', 'in', [...new Set(uuids)])
    .execute();
  return new Map(leads.map((l) => [l.uuid, l]));
}

function requestOf(task: TaskRow, lead: ActionLead, now: Date): ActionRequest {
  const payload = (task.payload ?? {}) as Record<string, unknown>;
  return {
    teamId: task.team_id,
    taskUuid: task.uuid,
    type: task.type as ActionType,
    senderProfileUuid: task.sender_profile_uuid as string,
    lead,
    text: typeof payload.rendered_text === 'string' ? payload.rendered_text : null,
    subject: typeof payload.rendered_subject === 'string' ? payload.rendered_subject : null,
    attachments: Array.isArray(payload.attachments) ? (payload.attachments as Array<{ uuid: string }>) : [],
    options: payload,
    at: now,
  };
}

/** The channel requests of `tasks` (one query for their contacts); a task whose contact is gone has none. */
export async function buildRequests(
  db: Executor,
  tasks: TaskRow[],
  now: Date,
): Promise<Map<string, ActionRequest>> {
  const requests = new Map<string, ActionRequest>();
  if (tasks.length === 0) return requests;
  const leadOf = await actionLeads(
    db,
    tasks[0]!.team_id,
    tasks.map((t) => t.lead_uuid),
  );
  for (const task of tasks) {
    const lead = leadOf.get(task.lead_uuid);
    if (lead && task.sender_profile_uuid) requests.set(task.uuid, requestOf(task, lead, now));
  }
  return requests;
}

export async function buildRequest(
  db: Executor,
  task: TaskRow,
  now: Date,
): Promise<ActionRequest | undefined> {
  return (await buildRequests(db, [task], now)).get(task.uuid);
}
