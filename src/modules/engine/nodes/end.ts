// end: the end of a branch - the enrollment finishes here.
import { defineNode } from './define.js';
import { noPayload } from './payload.js';

const END = defineNode({
  types: { end: 'The end of a branch: the enrollment finishes here' },
  category: 'terminal',
  branches: { kind: 'none' },
  payload: noPayload,
  run: () => ({ type: 'end', status: 'finished', reason: 'completed', outcome: { status: 'closed' } }),
});

export const END_NODES = [END];
