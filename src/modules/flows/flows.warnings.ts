// Why a flow cannot do its work, said on the flow itself so nobody waits for a flow that will never
// send: computed when a flow is read, from its active version and the current state of the senders its
// contact sources list (a sender deleted or disabled after the version was saved counts as missing, an
// enabled one without an active mailbox or a running seat is named for the steps it cannot take).
import type { Executor } from '../../db/database.js';
import { type AnyNodeDefinition, nodeDefinition } from '../engine/index.js';
import { type SenderChannels, selectSenderChannels } from '../senders/senders.repository.js';
import { selectVersionOutlines } from './versions/versions.repository.js';

export type FlowWarning = {
  code:
    | 'no_action_node'
    | 'no_sender'
    | 'senders_disabled'
    | 'sender_without_mailbox'
    | 'sender_without_seat';
  message: string;
  /** The sender a sender_without_* warning is about. */
  sender_profile_uuid?: string;
};

const needsSender = (definition: AnyNodeDefinition) => definition.needs?.includes('sender') ?? false;

export type VersionOutline = { types: string[]; senders: string[] };

/** The channel an action node acts on for its contact (LinkedIn through a seat, e-mail through a mailbox). */
function channelOf(type: string): 'linkedin' | 'email' | undefined {
  const definition = nodeDefinition(type);
  if (definition?.category !== 'action' || !needsSender(definition)) return undefined;
  if (type.startsWith('linkedin_')) return 'linkedin';
  if (type.startsWith('email_')) return 'email';
  return undefined;
}

function senderWarnings(outline: VersionOutline, senders: Map<string, SenderChannels>): FlowWarning[] {
  const channels = new Set(outline.types.map(channelOf));
  const warnings: FlowWarning[] = [];
  for (const uuid of outline.senders) {
    const sender = senders.get(uuid);
    if (sender?.status !== 'enabled') continue;
    const who = `Sender profile ${sender.name || uuid} (${uuid})`;
    if (channels.has('email') && !sender.mailbox) {
      warnings.push({
        code: 'sender_without_mailbox',
        sender_profile_uuid: uuid,
        message: `${who} has no active mailbox, so its contacts cannot get the e-mail steps. Connect one (POST /emails/api/mailboxes) or switch its mailbox on.`,
      });
    }
    if (channels.has('linkedin') && !sender.seat) {
      warnings.push({
        code: 'sender_without_seat',
        sender_profile_uuid: uuid,
        message: `${who} has no running LinkedIn seat, so its contacts wait at the LinkedIn steps. Create a seat (POST /browsers/api/linkedin-browsers) and log it in, or start its seat.`,
      });
    }
  }
  return warnings;
}

export function flowWarnings(outline: VersionOutline, senders: Map<string, SenderChannels>): FlowWarning[] {
  const warnings: FlowWarning[] = [];
  const definitions = outline.types.map((type) => nodeDefinition(type));
  if (!definitions.some((definition) => definition?.category === 'action')) {
    warnings.push({
      code: 'no_action_node',
      message:
        'The active version has no action node (message, connection request, e-mail, tag...): contacts only wait and route. Save a version with the steps to run.',
    });
  }
  if (definitions.some((definition) => definition && needsSender(definition))) {
    const known = outline.senders.filter((uuid) => senders.has(uuid));
    if (known.length === 0) {
      warnings.push({
        code: 'no_sender',
        message:
          'No contact source lists an existing sender profile, so no message can be sent. Add sender_profiles to a contact source.',
      });
    } else if (known.every((uuid) => senders.get(uuid)?.status !== 'enabled')) {
      warnings.push({
        code: 'senders_disabled',
        message:
          'Every sender profile of the contact sources is disabled. Enable one, or add an enabled one.',
      });
    } else {
      warnings.push(...senderWarnings(outline, senders));
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
  const senders = await selectSenderChannels(db, teamId, senderUuids);
  return new Map(outlines.map((outline) => [outline.uuid, flowWarnings(outline, senders)]));
}
