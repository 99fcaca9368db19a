// Where each box of the graph goes: dagre's layered layout, top to bottom. It depends only on the
// tree's shape (ids and edges), so typing in a node's text does not lay the graph out again.
import { Graph, layout } from '@dagrejs/dagre';
import type { Tree } from './tree';

export const NODE_WIDTH = 260;
export const NODE_HEIGHT = 84;
export const START_HEIGHT = 56;

export type Positions = Map<string, { x: number; y: number }>;

export const sourceKey = (id: number) => `source-${id}`;
export const nodeKey = (id: number) => `node-${id}`;

/** A key that changes only when the shape changes. */
export function shapeKey(tree: Tree): string {
  const nodes = tree.nodes.map(
    (n) => `${n.id}:${n.after.map((e) => `${e.branch_id}>${e.node_id}`).join(',')}`,
  );
  const sources = tree.contact_sources.map((s) => `${s.id}>${s.after_id}`);
  return `${nodes.join(';')}|${sources.join(';')}`;
}

export function layoutTree(tree: Tree): Positions {
  const g = new Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 50, ranksep: 70, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const s of tree.contact_sources)
    g.setNode(sourceKey(s.id), { width: NODE_WIDTH, height: START_HEIGHT });
  for (const n of tree.nodes) g.setNode(nodeKey(n.id), { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const s of tree.contact_sources) {
    if (typeof s.after_id === 'number') g.setEdge(sourceKey(s.id), nodeKey(s.after_id));
  }
  // Branches in id order, so "accepted" stays left of "not accepted" whatever the edit order.
  for (const n of tree.nodes) {
    for (const e of [...n.after].sort((a, b) => a.branch_id - b.branch_id))
      g.setEdge(nodeKey(n.id), nodeKey(e.node_id));
  }
  layout(g);
  const positions: Positions = new Map();
  for (const key of g.nodes()) {
    const box = g.node(key);
    if (box)
      positions.set(key, {
        x: box.x - (box.width ?? NODE_WIDTH) / 2,
        y: box.y - (box.height ?? NODE_HEIGHT) / 2,
      });
  }
  return positions;
}
