// A flow tree written as a list of nodes with their outgoing branches, for the simulation, the benchmarks
// and tests: `buildNodes` adds the symmetric before/after edges a saved version holds.

export type NodeSpec = {
  id: number;
  type: string;
  payload?: Record<string, unknown>;
  delay_in_seconds?: number;
  /** Branch id -> next node id. */
  next?: Record<number, number>;
};

/** Builds nodes with symmetric before/after edges from `next` maps. */
export function buildNodes(specs: NodeSpec[]) {
  const before = new Map<number, Array<{ node_id: number; branch_id: number }>>();
  for (const spec of specs) {
    for (const [branch, target] of Object.entries(spec.next ?? {})) {
      before.set(target, [...(before.get(target) ?? []), { node_id: spec.id, branch_id: Number(branch) }]);
    }
  }
  return specs.map((spec) => ({
    id: spec.id,
    type: spec.type,
    automation: 'auto',
    payload: spec.payload ?? [],
    delay_in_seconds: spec.delay_in_seconds ?? 0,
    before: before.get(spec.id) ?? [],
    after: Object.entries(spec.next ?? {}).map(([branch, target]) => ({
      node_id: target,
      branch_id: Number(branch),
    })),
  }));
}
