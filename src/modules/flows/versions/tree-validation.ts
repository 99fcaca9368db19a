// The rules a flow tree must satisfy, as pure functions over a request that passed its route schema.
// Every problem is collected (never just the first) under a path that names the node or contact
// source by id: `nodes[id=3].payload.template`, `contact_sources[id=1].after_id`. The service adds the
// checks that need the database (references, contact filters) and answers one 422 with all of them.
import { validationFailure } from '../../../http/validation.js';
import { isUuid } from '../../../lib/ids.js';
import {
  type AnyNodeDefinition,
  NODE_TYPE_NAMES,
  nodeDefinition,
  payloadValidator,
} from '../../engine/index.js';
import { checkTemplate } from '../../templates/render/render.js';
import type { ReferenceUse } from './references.js';
import type { ContactSourceInput, NodeInput } from './versions.schemas.js';

export type Problem = { path: string; message: string };

export type Edge = { node_id: number; branch_id: number };

/** A node as stored in a version: every field present, payload an object. */
export type StoredNode = {
  id: number;
  type: string;
  before: Edge[];
  after: Edge[];
  automation: 'auto';
  payload: Record<string, unknown>;
  delay_in_seconds: number;
  created_at: string;
  updated_at: string;
};

export type StoredContactSource = {
  id: number;
  name: string | null;
  rotation_strategy: 'fair';
  sender_profiles: string[];
  after_id: number | null;
  active_limit: number | null;
  coworkers_limit: number | null;
  mass_actions_filter: Record<string, unknown> | null;
  filter_tree_format: Record<string, unknown> | string | null;
};

export type Tree = {
  nodes: StoredNode[];
  contact_sources: StoredContactSource[];
  first_common_node_id: number | null;
};

/** A contact filter to compile against the team's contact fields (a bad one is a problem at `path`). */
export type FilterUse = { path: string; label: string; filter: Record<string, unknown> };

export function normalizeNode(node: NodeInput, now: string): StoredNode {
  const payload = node.payload && !Array.isArray(node.payload) ? node.payload : {};
  return {
    id: node.id,
    type: node.type,
    before: node.before.map(({ node_id, branch_id }) => ({ node_id, branch_id })),
    after: node.after.map(({ node_id, branch_id }) => ({ node_id, branch_id })),
    automation: 'auto',
    payload,
    delay_in_seconds: node.delay_in_seconds ?? 0,
    created_at: node.created_at ?? now,
    updated_at: node.updated_at ?? now,
  };
}

export function normalizeContactSource(source: ContactSourceInput): StoredContactSource {
  return {
    id: source.id,
    name: source.name ?? null,
    rotation_strategy: 'fair',
    sender_profiles: [...new Set((source.sender_profiles ?? []).map((uuid) => uuid.toLowerCase()))],
    after_id: source.after_id ?? null,
    active_limit: source.active_limit ?? null,
    coworkers_limit: source.coworkers_limit ?? null,
    mass_actions_filter: source.mass_actions_filter ?? null,
    filter_tree_format: source.filter_tree_format ?? null,
  };
}

export const nodePath = (node: { id: number }) => `nodes[id=${node.id}]`;
export const sourcePath = (source: { id: number }) => `contact_sources[id=${source.id}]`;
const label = (node: { id: number; type: string }) => `Node ${node.id} (${node.type})`;

/** The branch ids that must leave `node` (undefined when its payload is too broken to say). */
export function branchIdsOf(node: StoredNode, definition: AnyNodeDefinition): number[] | undefined {
  const rule = definition.branches;
  if (rule.kind === 'none') return [];
  if (rule.kind === 'fixed') return [...rule.ids];
  const branches = node.payload.branches;
  if (!Array.isArray(branches)) return undefined;
  return branches.map((branch) => (branch as { branch_id: number }).branch_id);
}

/** Rules of a payload (that has its shape) beyond its shape: its type's, and branches named once. */
function payloadRuleProblems(
  node: StoredNode,
  definition: AnyNodeDefinition,
  context: { flowUuid?: string },
): Problem[] {
  const problems: Problem[] = [];
  const at = (field: string, message: string) =>
    problems.push({ path: `${nodePath(node)}.${field}`, message: `${label(node)}: ${message}` });
  const branches = Array.isArray(node.payload.branches)
    ? (node.payload.branches as Array<Record<string, unknown>>)
    : [];
  const ids = branches.map((branch) => branch.branch_id as number);
  const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
  if (repeated.length > 0) {
    at('payload.branches', `payload.branches names branch ${repeated[0]} twice; each branch appears once.`);
  }
  for (const { field, message } of definition.rules?.(node.payload, context) ?? []) at(field, message);
  return problems;
}

/**
 * Every text the engine will render must parse with the engine's own renderer (the checker of the
 * AI-template endpoints): a typo is a 422 naming the field, with the parser's line and column, instead of
 * a message that cannot be sent.
 */
function templateProblems(node: StoredNode, definition: AnyNodeDefinition): Problem[] {
  return (definition.texts?.(node.payload) ?? []).flatMap(({ path, text }) =>
    checkTemplate(text).errors.map((error) => ({
      path: `${nodePath(node)}.${path}`,
      message: `${label(node)}: ${path} is not a valid template: ${error}.`,
    })),
  );
}

/**
 * What one node can be checked for on its own (validate-node): a known type, its payload, and the
 * branch ids of its outgoing edges. Tree-wide rules (edges to other nodes, reachability...) are not.
 */
export function nodeProblems(node: StoredNode, context: { flowUuid?: string } = {}): Problem[] {
  const definition = nodeDefinition(node.type);
  if (!definition) {
    return [
      {
        path: `${nodePath(node)}.type`,
        message: `Node ${node.id}: unknown node type "${node.type}". Types: ${NODE_TYPE_NAMES.join(', ')}.`,
      },
    ];
  }
  const problems: Problem[] = [];
  const check = payloadValidator(definition);
  let payloadValid = true;
  if (!check({ payload: node.payload })) {
    payloadValid = false;
    const { data } = validationFailure(check.errors ?? [], 'body');
    for (const [field, messages] of Object.entries(data)) {
      for (const message of messages as string[]) {
        problems.push({ path: `${nodePath(node)}.${field}`, message: `${label(node)}: ${message}` });
      }
    }
  }
  if (payloadValid) {
    problems.push(...payloadRuleProblems(node, definition, context), ...templateProblems(node, definition));
  }

  const allowed = payloadValid ? branchIdsOf(node, definition) : undefined;
  const seen = new Map<number, number>();
  node.after.forEach((edge, index) => {
    const path = `${nodePath(node)}.after.${index}.branch_id`;
    if (allowed && !allowed.includes(edge.branch_id)) {
      problems.push({
        path,
        message:
          allowed.length === 0
            ? `${label(node)}: an end node has no outgoing edges.`
            : `${label(node)}: branch ${edge.branch_id} is not a branch of ${node.type} (branches: ${allowed.join(', ')}).`,
      });
    }
    const other = seen.get(edge.branch_id);
    if (other !== undefined) {
      problems.push({
        path,
        message: `${label(node)}: branch ${edge.branch_id} leads to two nodes (${other} and ${edge.node_id}); a branch leads to one.`,
      });
    }
    seen.set(edge.branch_id, edge.node_id);
  });
  return problems;
}

function cycleProblems(nodes: Map<number, StoredNode>): Problem[] {
  const problems: Problem[] = [];
  const state = new Map<number, 'open' | 'done'>();
  const stack: number[] = [];
  const visit = (id: number) => {
    state.set(id, 'open');
    stack.push(id);
    for (const edge of nodes.get(id)?.after ?? []) {
      if (!nodes.has(edge.node_id)) continue;
      const seen = state.get(edge.node_id);
      if (seen === 'open') {
        const cycle = [...stack.slice(stack.indexOf(edge.node_id)), edge.node_id];
        const first = nodes.get(edge.node_id)!;
        problems.push({
          path: `${nodePath(first)}.after`,
          message: `Nodes ${cycle.join(' → ')} form a cycle; every path must run forward to an end node.`,
        });
      } else if (seen === undefined) visit(edge.node_id);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of nodes.keys()) if (!state.has(id)) visit(id);
  return problems;
}

/** Every structural rule of a tree, and each node's own rules. */
export function treeProblems(tree: Tree, context: { flowUuid?: string } = {}): Problem[] {
  const problems: Problem[] = [];
  const nodes = new Map<number, StoredNode>();
  for (const node of tree.nodes) {
    if (nodes.has(node.id)) {
      problems.push({
        path: `${nodePath(node)}.id`,
        message: `Node id ${node.id} is used twice; node ids are unique.`,
      });
      continue;
    }
    nodes.set(node.id, node);
  }
  for (const node of nodes.values()) {
    problems.push(...nodeProblems(node, context));
    for (const [direction, other] of [
      ['after', 'before'],
      ['before', 'after'],
    ] as const) {
      node[direction].forEach((edge, index) => {
        const target = nodes.get(edge.node_id);
        const path = `${nodePath(node)}.${direction}.${index}`;
        if (!target) {
          problems.push({
            path: `${path}.node_id`,
            message: `${label(node)}: ${direction}.${index} names node ${edge.node_id}, which is not in the tree.`,
          });
          return;
        }
        const mirrored = target[other].some((e) => e.node_id === node.id && e.branch_id === edge.branch_id);
        if (!mirrored) {
          problems.push({
            path,
            message:
              `${label(node)}: the edge ${direction === 'after' ? 'to' : 'from'} node ${target.id} (branch ${edge.branch_id}) ` +
              `has no matching ${other} edge {node_id: ${node.id}, branch_id: ${edge.branch_id}} on node ${target.id}; edges are symmetric.`,
          });
        }
      });
    }
    // Every branch of the node must lead on (so that, without cycles, every path ends in an end node).
    const definition = nodeDefinition(node.type);
    const required = definition ? branchIdsOf(node, definition) : undefined;
    for (const branch of required ?? []) {
      if (!node.after.some((edge) => edge.branch_id === branch)) {
        problems.push({
          path: `${nodePath(node)}.after`,
          message: `${label(node)}: branch ${branch} leads nowhere; every branch must end in an end node.`,
        });
      }
    }
  }
  problems.push(...cycleProblems(nodes));

  const sourceIds = new Set<number>();
  const entries: number[] = [];
  for (const source of tree.contact_sources) {
    if (sourceIds.has(source.id)) {
      problems.push({
        path: `${sourcePath(source)}.id`,
        message: `Contact source id ${source.id} is used twice; ids are unique.`,
      });
    }
    sourceIds.add(source.id);
    if (source.after_id === null || !nodes.has(source.after_id)) {
      problems.push({
        path: `${sourcePath(source)}.after_id`,
        message:
          source.after_id === null
            ? `Contact source ${source.id}: after_id is required: the node its contacts start at.`
            : `Contact source ${source.id}: after_id names node ${source.after_id}, which is not in the tree.`,
      });
    } else entries.push(source.after_id);
  }
  if (entries.length > 0) {
    const reached = new Set<number>();
    const queue = [...entries];
    while (queue.length > 0) {
      const id = queue.pop()!;
      if (reached.has(id)) continue;
      reached.add(id);
      for (const edge of nodes.get(id)?.after ?? []) if (nodes.has(edge.node_id)) queue.push(edge.node_id);
    }
    for (const node of nodes.values()) {
      if (!reached.has(node.id)) {
        problems.push({
          path: nodePath(node),
          message: `${label(node)} cannot be reached from the after_id of any contact source.`,
        });
      }
    }
  }
  for (const node of nodes.values()) {
    if (node.type !== 'gs_rotate_sender_profile' || !Array.isArray(node.payload.rotations)) continue;
    (node.payload.rotations as Array<{ contact_source_id: number }>).forEach((rotation, index) => {
      if (!sourceIds.has(rotation.contact_source_id)) {
        problems.push({
          path: `${nodePath(node)}.payload.rotations.${index}.contact_source_id`,
          message: `${label(node)}: payload.rotations.${index}.contact_source_id names contact source ${rotation.contact_source_id}, which this version does not have.`,
        });
      }
    });
  }
  if (tree.first_common_node_id !== null && !nodes.has(tree.first_common_node_id)) {
    problems.push({
      path: 'first_common_node_id',
      message: `first_common_node_id names node ${tree.first_common_node_id}, which is not in the tree.`,
    });
  }
  return problems;
}

/** The team records a node names, for the reference check. */
export function nodeReferences(node: StoredNode): ReferenceUse[] {
  const definition = nodeDefinition(node.type);
  if (!definition?.references) return [];
  return definition.references(node.payload).map((reference) => ({
    ...reference,
    path: `${nodePath(node)}.${reference.path}`,
    label: `${label(node)}: ${reference.path}`,
  }));
}

export function contactSourceReferences(source: StoredContactSource): ReferenceUse[] {
  return source.sender_profiles.filter(isUuid).map((uuid, index) => ({
    kind: 'sender_profile' as const,
    uuid,
    path: `${sourcePath(source)}.sender_profiles.${index}`,
    label: `Contact source ${source.id}: sender_profiles.${index}`,
  }));
}

/** The contact filters a node or contact source carries (compiled by the service). */
export function nodeFilters(node: StoredNode): FilterUse[] {
  const definition = nodeDefinition(node.type);
  return (definition?.filters?.(node.payload) ?? []).map(({ path, filter }) => ({
    path: `${nodePath(node)}.${path}`,
    label: `${label(node)}: ${path}`,
    filter,
  }));
}

export function contactSourceFilters(source: StoredContactSource): FilterUse[] {
  return source.mass_actions_filter
    ? [
        {
          path: `${sourcePath(source)}.mass_actions_filter`,
          label: `Contact source ${source.id}: mass_actions_filter`,
          filter: source.mass_actions_filter,
        },
      ]
    : [];
}
