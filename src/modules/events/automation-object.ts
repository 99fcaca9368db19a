// The `automation` object events raised in a flow's context carry (uuid, name, status, priority: the
// webhook payload's AutomationObject). Set-based for batches of events; the engine's emitters use it.
import type { Static } from 'typebox';
import type { Executor } from '../../db/database.js';
import type { AutomationObject } from './events.schemas.js';

export type Automation = Static<typeof AutomationObject>;

/** The automation objects of the team's flows among `uuids` (missing or foreign flows are left out). */
export async function automationObjects(
  db: Executor,
  teamId: number,
  uuids: string[],
): Promise<Map<string, Automation>> {
  const wanted = [...new Set(uuids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('flows')
    .select(['uuid', 'name', 'status', 'priority'])
    .where('team_id', '=', teamId)
    .where('uuid', 'in', wanted)
    .execute();
  return new Map(
    rows.map((row) => [
      row.uuid,
      { uuid: row.uuid, name: row.name, status: row.status, priority: row.priority },
    ]),
  );
}

export async function automationObject(
  db: Executor,
  teamId: number,
  uuid: string | null,
): Promise<Automation | null> {
  if (!uuid) return null;
  return (await automationObjects(db, teamId, [uuid])).get(uuid) ?? null;
}
