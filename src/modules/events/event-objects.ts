// The sender_profile and automation objects every engine event carries (webhook payload shapes of
// src/modules/events/events.schemas.ts).
import type { Static } from 'typebox';
import type { Executor } from '../../db/database.js';
import { automationObject } from './automation-object.js';
import type { AutomationObject, SenderProfileObject } from './events.schemas.js';

export type SenderObject = Static<typeof SenderProfileObject>;
export type FlowObject = Static<typeof AutomationObject>;

export async function senderObject(
  db: Executor,
  teamId: number,
  uuid: string | null,
): Promise<SenderObject | null> {
  if (!uuid) return null;
  const row = await db
    .selectFrom('sender_profiles')
    .select(['uuid', 'first_name', 'last_name', 'label', 'assignee_user_id', 'team_id'])
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  return row ?? null;
}

/** The flow's `automation` object (built by the flows module). */
export const flowObject: (db: Executor, teamId: number, uuid: string | null) => Promise<FlowObject | null> =
  automationObject;
