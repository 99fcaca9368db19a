// The node registry holds itself together: every type has exactly one definition with a runner, every
// definition a kind file exports is registered (a runner no type reaches fails here), the channel
// actions and the action definitions agree, and the API's node-types listing is the registry.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EMAIL_ACTIONS, LINKEDIN_ACTIONS } from '../../channels/driver.js';
import { createFlowVersionsService } from '../../flows/versions/versions.service.js';
import { advance } from '../run/machine.js';
import { type BatchContext, type EnrollmentRow, Work } from '../run/work.js';
import { compileVersion } from '../version.js';
import type { AnyNodeDefinition } from './define.js';
import { NODE_DEFINITIONS, NODE_TYPE_NAMES, nodeDefinition } from './registry.js';

const isDefinition = (value: unknown): value is AnyNodeDefinition =>
  typeof value === 'object' && value !== null && 'types' in value && 'run' in value;

/** Every definition the kind files beside the registry export (in arrays or alone). */
async function exportedDefinitions(): Promise<Map<AnyNodeDefinition, string>> {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const found = new Map<AnyNodeDefinition, string>();
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    // A relative specifier resolves to the module the app already loaded; a file:// URL would load a
    // second copy of each kind file (and what it imports), whose registrations leak into later test files
    // of the same worker (isolate: false).
    const module = (await import(/* @vite-ignore */ `./${file}`)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (isDefinition(item)) found.set(item, file);
      }
    }
  }
  return found;
}

describe('node registry', () => {
  it('gives every type one definition with a runner, and registers every definition a kind file exports', async () => {
    const seen = new Map<string, number>();
    for (const definition of NODE_DEFINITIONS) {
      expect(Object.keys(definition.types).length).toBeGreaterThan(0);
      expect(typeof definition.run).toBe('function');
      for (const type of Object.keys(definition.types)) seen.set(type, (seen.get(type) ?? 0) + 1);
    }
    expect([...seen].filter(([, count]) => count > 1)).toEqual([]);
    expect([...seen.keys()].sort()).toEqual([...NODE_TYPE_NAMES].sort());
    const exported = await exportedDefinitions();
    expect(exported.size).toBeGreaterThan(0);
    const unregistered = [...exported]
      .filter(([definition]) => !NODE_DEFINITIONS.includes(definition))
      .map(([definition, file]) => `${file}: ${Object.keys(definition.types).join(', ')}`);
    expect(unregistered, 'defined in a kind file but not in registry.ts').toEqual([]);
  });

  it('defines every channel action as an action node that needs a sender, and no other', () => {
    const channelActions = [...LINKEDIN_ACTIONS, ...EMAIL_ACTIONS].sort();
    const messageNodes = NODE_TYPE_NAMES.filter((type) => nodeDefinition(type)?.needs?.includes('message'));
    expect(messageNodes.sort()).toEqual(channelActions);
    for (const type of channelActions) {
      expect(nodeDefinition(type)).toMatchObject({ category: 'action', needs: ['sender', 'message'] });
    }
  });

  it('is what GET node-types lists and what the node type field describes', () => {
    const listing = createFlowVersionsService({} as never).nodeTypes();
    expect(listing.map((entry) => entry.type)).toEqual(NODE_TYPE_NAMES);
    for (const entry of listing) {
      const definition = nodeDefinition(entry.type)!;
      expect(entry.description).toBe(definition.types[entry.type]);
      expect(entry.payload_schema).toBe(definition.payload);
      expect(entry.needs_sender).toBe(definition.needs?.includes('sender') ?? false);
    }
  });

  it('fails the step of a stored payload its type refuses, saying why, instead of guessing', () => {
    const version = compileVersion({
      uuid: '0190f000-0000-7000-8000-000000000001',
      flow_uuid: '0190f000-0000-7000-8000-000000000002',
      nodes: [{ id: 1, type: 'util_timer', payload: { wait_time: 'soon' }, before: [], after: [] }],
      contact_sources: [],
    });
    expect(version.nodes.get(1)?.payloadError).toMatch(/wait_time/);
    const row = { uuid: 'e', claim_token: 1, flow_node_id: 1, step: 0, status: 'in_progress' };
    const work = new Work(row as EnrollmentRow, version, undefined, undefined, undefined);
    advance(work, { now: new Date('2026-01-01T00:00:00Z') } as BatchContext);
    expect(work.fl).toMatchObject({ status: 'failed', reason: 'invalid_payload' });
    expect(work.newTasks[0]).toMatchObject({
      type: 'util_timer',
      status: 'failed',
      automation_error_code: 'invalid_payload',
      error_msg: expect.stringMatching(/^The node's payload does not match its type: .*wait_time/),
    });
  });
});
