// Why a flow cannot do its work, said on the flow itself so nobody waits for a flow that will never
// send: computed when a flow is read, from its active version and the current state of the senders its
// contact sources list (a sender deleted or disabled after the version was saved counts as missing).
import type { Executor } from '../../db/database.js';
import { selectSenderStatuses } from '../senders/senders.repository.js';
import { nodeType } from './versions/node-catalogue.js';
import { selectVersionOutlines } from './versions/versions.repository.js';

export type FlowWarning = {
  code: 'no_action_node' | 'no_sender' | 'senders_disabled';
  message: string;
};

export type VersionOutline = { types: string[]; senders: string[] };

export function flowWarnings(outline: VersionOutline, senders: Map<string, string>): FlowWarning[] {
  const warnings: FlowWarning[] = [];
  const definitions = outline.types.map((type) => nodeType(type));
  if (!definitions.some((definition) => definition?.category === 'action')) {
    warnings.push({
      code: 'no_action_node',
      message:
        'The active version has no action node (message, connection request, e-mail, tag...): contacts only wait and route. Save a version with the steps to run.',
    });
  }
  if (definitions.some((definition) => definition?.needsSender)) {
    const known = outline.senders.filter((uuid) => senders.has(uuid));
    if (known.length === 0) {
      warnings.push({
        code: 'no_sender',
        message:
          'No contact source lists an existing sender profile, so no message can be sent. Add sender_profiles to a contact source.',
      });
    } else if (known.every((uuid) => senders.get(uuid) !== 'enabled')) {
      warnings.push({
        code: 'senders_disabled',
        message:
          'Every sender profile of the contact sources is disabled. Enable one, or add an enabled one.',
      });
    }
  }
  return warnings;
}

/** Warnings of the flows whose active versions are `versionUuids`, keyed by version uuid. */
export async function loadFlowWarnings(
  db: Executor,
  teamId: number,
  versionUuids: string[],
): Promise<Map<string, FlowWarning[]>> {
  const outlines = await selectVersionOutlines(db, teamId, versionUuids);
  const senderUuids = [...new Set(outlines.flatMap((outline) => outline.senders))];
  const senders: Map<string, string> = await selectSenderStatuses(db, teamId, senderUuids);
  return new Map(outlines.map((outline) => [outline.uuid, flowWarnings(outline, senders)]));
}
