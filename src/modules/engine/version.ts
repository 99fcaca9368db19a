// A flow version as the engine walks it: nodes by id, the node an edge leads to per branch, and the
// contact sources. Versions are immutable, so a compiled version is cached for the life of the process;
// each node's payload is checked against its type's schema once, here (nodes/registry.ts).
import { LRUCache } from 'lru-cache';
import type { Executor } from '../../db/database.js';
import { validationFailure } from '../../http/validation.js';
import { nodeDefinition, payloadValidator } from './nodes/registry.js';

export type Edge = { node_id: number; branch_id: number };

/** A node of a compiled version; `P` is its payload's type once its definition's check has passed. */
export type EngineNode<P = Record<string, unknown>> = {
  id: number;
  type: string;
  before: Edge[];
  after: Edge[];
  payload: P;
  delay_in_seconds: number;
  /** Why the payload does not match its type's schema (a version written around the API); the step fails. */
  payloadError?: string;
};

export type ContactSource = {
  id: number;
  name: string | null;
  rotation_strategy: string;
  sender_profiles: string[];
  after_id: number | null;
  active_limit?: number | null;
};

export type CompiledVersion = {
  uuid: string;
  flowUuid: string;
  nodes: Map<number, EngineNode>;
  sources: Map<number, ContactSource>;
  /** The node the `branch` edge of `nodeId` leads to. */
  next(nodeId: number, branch: number): EngineNode | undefined;
};

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Why `payload` fails its type's schema, if it does (an unknown type has no schema to fail). */
function payloadProblem(type: string, payload: Record<string, unknown>): string | undefined {
  const definition = nodeDefinition(type);
  if (!definition) return undefined;
  const check = payloadValidator(definition);
  return check({ payload }) ? undefined : validationFailure(check.errors ?? [], 'body').message;
}

export function compileVersion(row: {
  uuid: string;
  flow_uuid: string;
  nodes: unknown[];
  contact_sources: unknown[];
}): CompiledVersion {
  const nodes = new Map<number, EngineNode>();
  for (const raw of row.nodes) {
    const node = asObject(raw);
    const id = Number(node.id);
    const type = String(node.type);
    // A node without configuration arrives as [] from the hosted editor.
    const payload = asObject(node.payload);
    const problem = payloadProblem(type, payload);
    nodes.set(id, {
      id,
      type,
      before: (Array.isArray(node.before) ? node.before : []) as Edge[],
      after: (Array.isArray(node.after) ? node.after : []) as Edge[],
      payload,
      delay_in_seconds: Math.max(0, Number(node.delay_in_seconds) || 0),
      ...(problem ? { payloadError: problem } : {}),
    });
  }
  const sources = new Map<number, ContactSource>();
  for (const raw of row.contact_sources) {
    const source = asObject(raw) as unknown as ContactSource;
    sources.set(Number(source.id), {
      ...source,
      sender_profiles: Array.isArray(source.sender_profiles) ? source.sender_profiles : [],
    });
  }
  return {
    uuid: row.uuid,
    flowUuid: row.flow_uuid,
    nodes,
    sources,
    next(nodeId, branch) {
      const edge = nodes.get(nodeId)?.after.find((e) => Number(e.branch_id) === branch);
      return edge ? nodes.get(Number(edge.node_id)) : undefined;
    },
  };
}

const cache = new LRUCache<string, CompiledVersion>({ max: 2000 });

/** The compiled versions among `uuids` (of one team), from the cache or one query for the rest. */
export async function loadVersions(
  db: Executor,
  teamId: number,
  uuids: string[],
): Promise<Map<string, CompiledVersion>> {
  const found = new Map<string, CompiledVersion>();
  const missing: string[] = [];
  for (const uuid of new Set(uuids)) {
    const hit = cache.get(`${teamId}:${uuid}`);
    if (hit) found.set(uuid, hit);
    else missing.push(uuid);
  }
  if (missing.length > 0) {
    const rows = await db
      .selectFrom('flow_versions')
      .select(['uuid', 'flow_uuid', 'nodes', 'contact_sources'])
      .where('team_id', '=', teamId)
      .where('uuid', 'in', missing)
      .execute();
    for (const row of rows) {
      const compiled = compileVersion(row);
      cache.set(`${teamId}:${row.uuid}`, compiled);
      found.set(row.uuid, compiled);
    }
  }
  return found;
}
