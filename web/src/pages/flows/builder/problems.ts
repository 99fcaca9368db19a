// The API's 422 on a version save lists problems by field path: `nodes[id=3].payload.template` and
// `contact_sources[id=1].after_id` for rules of the tree, `nodes.0.before` (an index into the array
// sent) for shape errors. This file files each message under the node or contact source it names.
export type Problems = {
  nodes: Map<number, string[]>;
  sources: Map<number, string[]>;
  /** Messages that name neither (shown above the graph). */
  other: string[];
};

export function emptyProblems(): Problems {
  return { nodes: new Map(), sources: new Map(), other: [] };
}

function push(map: Map<number, string[]>, id: number, messages: string[]) {
  map.set(id, [...(map.get(id) ?? []), ...messages]);
}

/** `sentNodeIds[i]` is the id of the node at index i of the body sent (for index paths). */
export function problemsOf(
  fields: Record<string, string[]>,
  sentNodeIds: number[],
  sentSourceIds: number[],
  message?: string,
): Problems {
  const problems = emptyProblems();
  for (const [path, messages] of Object.entries(fields)) {
    // "Node 3 (linkedin_send_message): ..." - the node is already on the box; keep what follows.
    const clean = messages.map((m) => m.replace(/^Node \d+ \([^)]*\):\s*/, ''));
    const byId = /^nodes\[id=(\d+)\]/.exec(path);
    const byIndex = /^nodes[.[](\d+)/.exec(path);
    const sourceById = /^contact_sources\[id=(\d+)\]/.exec(path);
    const sourceByIndex = /^contact_sources[.[](\d+)/.exec(path);
    if (byId) push(problems.nodes, Number(byId[1]), clean);
    else if (byIndex && sentNodeIds[Number(byIndex[1])] !== undefined)
      push(problems.nodes, sentNodeIds[Number(byIndex[1])] as number, clean);
    else if (sourceById) push(problems.sources, Number(sourceById[1]), clean);
    else if (sourceByIndex && sentSourceIds[Number(sourceByIndex[1])] !== undefined)
      push(problems.sources, sentSourceIds[Number(sourceByIndex[1])] as number, clean);
    else problems.other.push(...messages.map((m) => (path && !m.includes(path) ? `${path}: ${m}` : m)));
  }
  if (problems.nodes.size + problems.sources.size + problems.other.length === 0 && message) {
    problems.other.push(message);
  }
  return problems;
}

export function problemCount(problems: Problems): number {
  let n = problems.other.length;
  for (const list of problems.nodes.values()) n += list.length;
  for (const list of problems.sources.values()) n += list.length;
  return n;
}
