// The builder's model of a flow version: nodes with their outgoing edges (the `after` lists are the
// truth; the `before` lists a saved version also holds are derived when saving), and the contact
// sources pointing at entry nodes. Every edit is a pure function from one draft to the next, so undo
// and redo are a list of drafts.
import type { ContactSource, TreeNode } from '../flow-types';

export type Edge = { node_id: number; branch_id: number };
export type Node = Omit<TreeNode, 'before' | 'payload'> & {
  after: Edge[];
  payload: Record<string, unknown>;
};
export type Tree = { nodes: Node[]; contact_sources: ContactSource[]; first_common_node_id: number | null };

/** Where a new node goes: after `from` on `branch` (or at a contact source's entry). */
export type Slot = { from: number; branch: number } | { source: number };

const END: Omit<Node, 'id'> = { type: 'end', after: [], payload: {}, delay_in_seconds: 0 };

/** The tree as a saved version or flow answer holds it (payload `[]` read as `{}`). */
export function fromVersion(version: {
  nodes: Array<Pick<TreeNode, 'id' | 'type' | 'after'> & { payload?: unknown; delay_in_seconds?: number }>;
  contact_sources: Array<Omit<ContactSource, 'rotation_strategy'> & { rotation_strategy?: string }>;
  first_common_node_id?: number | null;
}): Tree {
  return {
    nodes: version.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      after: n.after.map((e) => ({ node_id: e.node_id, branch_id: e.branch_id })),
      payload: n.payload && !Array.isArray(n.payload) ? (n.payload as Record<string, unknown>) : {},
      delay_in_seconds: n.delay_in_seconds ?? 0,
    })),
    contact_sources: version.contact_sources.map((s) => ({ ...s, rotation_strategy: 'fair' as const })),
    first_common_node_id: version.first_common_node_id ?? null,
  };
}

/** The body of POST .../flow-versions: symmetric before/after edges. */
export function toVersionBody(tree: Tree) {
  const before = new Map<number, Edge[]>();
  for (const node of tree.nodes) {
    for (const edge of node.after) {
      before.set(edge.node_id, [
        ...(before.get(edge.node_id) ?? []),
        { node_id: node.id, branch_id: edge.branch_id },
      ]);
    }
  }
  const ids = new Set(tree.nodes.map((n) => n.id));
  return {
    nodes: tree.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      automation: 'auto' as const,
      payload: n.payload,
      delay_in_seconds: n.delay_in_seconds ?? 0,
      before: before.get(n.id) ?? [],
      after: n.after,
    })),
    contact_sources: tree.contact_sources,
    first_common_node_id:
      tree.first_common_node_id !== null && ids.has(tree.first_common_node_id)
        ? tree.first_common_node_id
        : null,
  };
}

export function nodeById(tree: Tree, id: number): Node | undefined {
  return tree.nodes.find((n) => n.id === id);
}

function nextId(tree: Tree): number {
  return tree.nodes.reduce((max, n) => Math.max(max, n.id), 0) + 1;
}

/** The node a slot leads to now. */
export function targetOf(tree: Tree, slot: Slot): number | undefined {
  if ('source' in slot) return tree.contact_sources.find((s) => s.id === slot.source)?.after_id ?? undefined;
  return nodeById(tree, slot.from)?.after.find((e) => e.branch_id === slot.branch)?.node_id;
}

/** Points a slot at `target`. */
function retarget(tree: Tree, slot: Slot, target: number): Tree {
  if ('source' in slot) {
    return {
      ...tree,
      contact_sources: tree.contact_sources.map((s) =>
        s.id === slot.source ? { ...s, after_id: target } : s,
      ),
    };
  }
  return {
    ...tree,
    nodes: tree.nodes.map((n) =>
      n.id === slot.from
        ? {
            ...n,
            after: n.after.some((e) => e.branch_id === slot.branch)
              ? n.after.map((e) => (e.branch_id === slot.branch ? { ...e, node_id: target } : e))
              : [...n.after, { node_id: target, branch_id: slot.branch }],
          }
        : n,
    ),
  };
}

/**
 * Inserts a node of `type` into a slot. Its first branch continues to what the slot led to; each of
 * its other branches gets an end node of its own, so every path still ends.
 */
export function insertNode(
  tree: Tree,
  slot: Slot,
  type: string,
  branches: number[],
  payload: Record<string, unknown>,
): { tree: Tree; id: number } {
  const id = nextId(tree);
  const target = targetOf(tree, slot);
  let next = nextId(tree) + 1;
  const extra: Node[] = [];
  const after: Edge[] = branches.map((branch, index) => {
    if (index === 0 && target !== undefined) return { node_id: target, branch_id: branch };
    const end = { ...END, id: next++ };
    extra.push(end);
    return { node_id: end.id, branch_id: branch };
  });
  const node: Node = { id, type, after, payload, delay_in_seconds: 0 };
  const withNode = { ...tree, nodes: [...tree.nodes, node, ...extra] };
  return { tree: retarget(withNode, slot, id), id };
}

/** Nodes only reachable through `root` (root included): what deleting or moving it takes along. */
export function subtreeOf(tree: Tree, root: number): Set<number> {
  const parents = new Map<number, number[]>();
  for (const n of tree.nodes)
    for (const e of n.after) parents.set(e.node_id, [...(parents.get(e.node_id) ?? []), n.id]);
  const entries = new Set(tree.contact_sources.map((s) => s.after_id));
  const inside = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const n of tree.nodes) {
      if (inside.has(n.id) || entries.has(n.id)) continue;
      const ps = parents.get(n.id) ?? [];
      if (ps.length > 0 && ps.every((p) => inside.has(p))) {
        inside.add(n.id);
        grew = true;
      }
    }
  }
  return inside;
}

/** The slots that lead into a node (its parents' branches and the sources entering at it). */
function slotsInto(tree: Tree, id: number): Slot[] {
  const slots: Slot[] = tree.contact_sources.filter((s) => s.after_id === id).map((s) => ({ source: s.id }));
  for (const n of tree.nodes)
    for (const e of n.after) if (e.node_id === id) slots.push({ from: n.id, branch: e.branch_id });
  return slots;
}

/** Removes one step: what led into it leads to what its first branch led to (its other branches go). */
export function deleteNode(tree: Tree, id: number): Tree {
  const node = nodeById(tree, id);
  if (!node || node.type === 'end') return tree;
  const first = node.after[0]?.node_id;
  let next: Tree = { ...tree, nodes: tree.nodes.filter((n) => n.id !== id) };
  const fallback = first ?? nextId(tree);
  if (first === undefined) next = { ...next, nodes: [...next.nodes, { ...END, id: fallback }] };
  for (const slot of slotsInto(tree, id)) next = retarget(next, slot, fallback);
  // Other branches' nodes that nothing reaches any more go with it.
  return prune(next);
}

/** Removes a node and everything only reachable through it; what led into it now ends there. */
export function deleteSubtree(tree: Tree, id: number): Tree {
  const node = nodeById(tree, id);
  if (!node || node.type === 'end') return tree;
  const gone = subtreeOf(tree, id);
  const endId = nextId(tree);
  let next: Tree = { ...tree, nodes: [...tree.nodes.filter((n) => !gone.has(n.id)), { ...END, id: endId }] };
  for (const slot of slotsInto(tree, id)) next = retarget(next, slot, endId);
  return prune(next);
}

/** Drops nodes no contact source reaches (left behind by a delete). */
function prune(tree: Tree): Tree {
  const reached = new Set<number>();
  const stack = tree.contact_sources.map((s) => s.after_id).filter((x): x is number => typeof x === 'number');
  while (stack.length > 0) {
    const id = stack.pop() as number;
    if (reached.has(id)) continue;
    reached.add(id);
    for (const e of nodeById(tree, id)?.after ?? []) stack.push(e.node_id);
  }
  return { ...tree, nodes: tree.nodes.filter((n) => reached.has(n.id)) };
}

/** A subtree lifted out of a tree (for copy or move): its nodes with their internal edges. */
export type Clip = { root: number; nodes: Node[] };

export function clipOf(tree: Tree, root: number): Clip {
  const ids = subtreeOf(tree, root);
  return { root, nodes: tree.nodes.filter((n) => ids.has(n.id)) };
}

/**
 * Pastes a clip into a slot with fresh node ids. Edges of the clip that left it end in new end nodes;
 * what the slot led to replaces the clip's first end (or, when that was an end node, is dropped).
 */
export function pasteClip(tree: Tree, slot: Slot, clip: Clip): { tree: Tree; id: number } {
  const ids = new Map<number, number>();
  let next = nextId(tree);
  for (const n of clip.nodes) ids.set(n.id, next++);
  const extra: Node[] = [];
  const target = targetOf(tree, slot);
  const targetIsEnd = target !== undefined && nodeById(tree, target)?.type === 'end';
  let continued = targetIsEnd || target === undefined;
  const nodes: Node[] = clip.nodes.map((n) => ({
    ...n,
    id: ids.get(n.id) as number,
    payload: structuredClone(n.payload),
    after: n.after.map((e) => {
      const inside = ids.get(e.node_id);
      if (inside !== undefined) return { ...e, node_id: inside };
      const end = { ...END, id: next++ };
      extra.push(end);
      return { ...e, node_id: end.id };
    }),
  }));
  // The slot's old target continues after the clip's first end node.
  if (!continued) {
    const firstEnd = [...nodes, ...extra].find((n) => n.type === 'end');
    if (firstEnd && target !== undefined) {
      for (const n of nodes)
        n.after = n.after.map((e) => (e.node_id === firstEnd.id ? { ...e, node_id: target } : e));
      const index = nodes.indexOf(firstEnd);
      if (index >= 0) nodes.splice(index, 1);
      const extraIndex = extra.indexOf(firstEnd);
      if (extraIndex >= 0) extra.splice(extraIndex, 1);
      continued = true;
    }
  }
  const root = ids.get(clip.root) as number;
  const withClip = { ...tree, nodes: [...tree.nodes, ...nodes, ...extra] };
  return { tree: prune(retarget(withClip, slot, root)), id: root };
}

/** Moves a subtree to another slot (one outside it). */
export function moveSubtree(tree: Tree, root: number, slot: Slot): Tree {
  const inside = subtreeOf(tree, root);
  if ('from' in slot && inside.has(slot.from)) return tree;
  const clip = clipOf(tree, root);
  const removed = deleteSubtree(tree, root);
  // Node ids stay stable where possible: paste under fresh ids, then the old ones are free again.
  return pasteClip(removed, slot, clip).tree;
}

/** Changes one node (its payload, delay). */
export function updateNode(
  tree: Tree,
  id: number,
  change: Partial<Pick<Node, 'payload' | 'delay_in_seconds'>>,
): Tree {
  return { ...tree, nodes: tree.nodes.map((n) => (n.id === id ? { ...n, ...change } : n)) };
}

/** Makes a node's outgoing branches match `branches` (a router's payload names them). */
export function setBranches(tree: Tree, id: number, branches: number[]): Tree {
  const node = nodeById(tree, id);
  if (!node) return tree;
  let next = nextId(tree);
  const extra: Node[] = [];
  const after = branches.map((branch) => {
    const existing = node.after.find((e) => e.branch_id === branch);
    if (existing) return existing;
    const end = { ...END, id: next++ };
    extra.push(end);
    return { node_id: end.id, branch_id: branch };
  });
  const nodes = tree.nodes.map((n) => (n.id === id ? { ...n, after } : n));
  return prune({ ...tree, nodes: [...nodes, ...extra] });
}
