// Switching the enrollment's sender: to a named sender, or by rotation to another sender of named
// contact sources (the contact then starts over from the first source's entry node).
import { Type } from 'typebox';
import { uniform } from '../../../lib/rng.js';
import { defineNode } from './define.js';
import { closed, LINEAR, one, skipped, uuid } from './payload.js';

const CHANGE_SENDER = defineNode({
  types: { gs_change_sender_profile: 'Switches the sender of the contact' },
  category: 'action',
  branches: LINEAR,
  payload: closed({ sender_profile_uuid: uuid('Sender profile') }),
  references: one('sender_profile', 'sender_profile_uuid'),
  run(work, node, ctx) {
    const uuid = node.payload.sender_profile_uuid.toLowerCase();
    if (!ctx.senders.has(uuid)) {
      return skipped('invalid_reference', `Sender profile ${uuid || '(none)'} does not exist.`);
    }
    work.fl.sender_profile_uuid = uuid;
    return { type: 'advance', branch: 1, outcome: { status: 'closed' } };
  },
});

const ROTATE_SENDER = defineNode({
  types: {
    gs_rotate_sender_profile: 'Restarts the contact from the top with the next sender of a contact source',
  },
  category: 'action',
  branches: LINEAR,
  payload: closed({
    rotations: Type.Array(closed({ contact_source_id: Type.Integer({ description: 'Contact source id' }) }), {
      minItems: 1,
      maxItems: 20,
      description: 'Contact sources of this version whose senders rotate',
    }),
  }),
  run(work, node, ctx) {
    // Another sender of the named sources, then from the top of the first.
    const sources = node.payload.rotations
      .map((r) => work.version?.sources.get(r.contact_source_id))
      .filter((s) => s !== undefined);
    const current = work.fl.sender_profile_uuid;
    const candidates = [...new Set(sources.flatMap((s) => s.sender_profiles))]
      .map((uuid) => uuid.toLowerCase())
      .filter((uuid) => uuid !== current && ctx.senders.get(uuid)?.status === 'enabled')
      .sort();
    const entry = sources[0]?.after_id;
    if (candidates.length === 0 || entry === null || entry === undefined) {
      return skipped('no_sender', 'No other enabled sender in the rotation; the contact keeps its sender.');
    }
    const pick = candidates[
      Math.floor(uniform('rotate', work.fl.uuid, node.id) * candidates.length)
    ] as string;
    work.fl.sender_profile_uuid = pick;
    return { type: 'jump', nodeId: Number(entry), outcome: { status: 'closed' } };
  },
});

export const SENDER_NODES = [CHANGE_SENDER, ROTATE_SENDER];
