// Spintax: `{Hi|Hello|Hey}` picks one option; groups nest (`{Hi|Hello {there|friend}}`). Liquid markup
// (`{{ ... }}`, `{% ... %}`) is opaque to it, so `{Hi {{first_name}}|Hello}` works and Liquid's own braces
// are never read as a group. A `{` whose group has no top-level `|` or never closes is plain text.
//
// A template is parsed once into a tree; `realize` walks it with a random source. With a seeded source
// the same seed gives the same text, so a retried automation step sends what the first attempt rendered.

export type SpinNode = string | SpinNode[][];

/**
 * A template's spintax tree: plain text pieces and groups (arrays of options, each a node list), and
 * where the groups' own `{`, `|` and `}` stand in the source.
 */
export type SpinTree = { nodes: SpinNode[]; hasGroups: boolean; delimiters: number[] };

export function parseSpintax(source: string): SpinTree {
  const matches = matchBraces(source);
  const delimiters: number[] = [];

  // Nodes of source[from, to): text, Liquid markup (kept as text), groups and literal brace pairs.
  const parseRange = (from: number, to: number): SpinNode[] => {
    const nodes: SpinNode[] = [];
    let text = '';
    let i = from;
    while (i < to) {
      const liquidEnd = liquidRegionEnd(source, i);
      if (liquidEnd > i) {
        text += source.slice(i, liquidEnd);
        i = liquidEnd;
        continue;
      }
      const close = source[i] === '{' ? (matches.get(i) ?? -1) : -1;
      if (close === -1) {
        text += source[i];
        i += 1;
        continue;
      }
      const cuts = topLevelPipes(source, matches, i + 1, close);
      if (cuts.length === 0) {
        // `{text}` without options is literal text; groups inside it still spin.
        text += '{';
        for (const node of parseRange(i + 1, close)) {
          if (typeof node === 'string') text += node;
          else {
            if (text) nodes.push(text);
            text = '';
            nodes.push(node);
          }
        }
        text += '}';
      } else {
        if (text) nodes.push(text);
        text = '';
        const bounds = [i, ...cuts, close];
        delimiters.push(...bounds);
        const options: SpinNode[][] = [];
        for (let k = 0; k + 1 < bounds.length; k++) options.push(parseRange(bounds[k]! + 1, bounds[k + 1]!));
        nodes.push(options);
      }
      i = close + 1;
    }
    if (text) nodes.push(text);
    return nodes;
  };

  const nodes = parseRange(0, source.length);
  return { nodes, hasGroups: delimiters.length > 0, delimiters };
}

/** End of the Liquid markup (`{{ }}` or `{% %}`) starting at `i`, or `i` when none starts there. */
function liquidRegionEnd(source: string, i: number): number {
  if (source[i] !== '{') return i;
  const next = source[i + 1];
  if (next !== '{' && next !== '%') return i;
  const close = source.indexOf(next === '{' ? '}}' : '%}', i + 2);
  return close === -1 ? source.length : close + 2;
}

/** Position of the matching `}` for every `{` that has one, outside Liquid markup (one pass). */
function matchBraces(source: string): Map<number, number> {
  const matches = new Map<number, number>();
  const open: number[] = [];
  let i = 0;
  while (i < source.length) {
    const liquidEnd = liquidRegionEnd(source, i);
    if (liquidEnd > i) {
      i = liquidEnd;
      continue;
    }
    if (source[i] === '{') open.push(i);
    else if (source[i] === '}' && open.length > 0) matches.set(open.pop()!, i);
    i += 1;
  }
  return matches;
}

/** Positions of the `|` separating a group's options in source[from, to) (nested groups skipped). */
function topLevelPipes(source: string, matches: Map<number, number>, from: number, to: number): number[] {
  const cuts: number[] = [];
  let i = from;
  while (i < to) {
    const liquidEnd = liquidRegionEnd(source, i);
    if (liquidEnd > i) {
      i = liquidEnd;
      continue;
    }
    const close = source[i] === '{' ? matches.get(i) : undefined;
    if (close !== undefined) i = close + 1;
    else {
      if (source[i] === '|') cuts.push(i);
      i += 1;
    }
  }
  return cuts;
}

/** The text of one pick through the tree; `random` returns a float in [0, 1). */
export function realizeSpintax(tree: SpinTree, random: () => number): string {
  if (!tree.hasGroups) return tree.nodes.join('');
  let out = '';
  const walk = (nodes: SpinNode[]) => {
    for (const node of nodes) {
      if (typeof node === 'string') out += node;
      else walk(node[Math.floor(random() * node.length)] ?? []);
    }
  };
  walk(tree.nodes);
  return out;
}

/** Picks one of `a|b|c` (the `spintax` Liquid filter; no nesting, `|` separates). */
export function pickOption(text: string, random: () => number): string {
  const options = text.split('|');
  return options[Math.floor(random() * options.length)] ?? '';
}

/**
 * A seeded pseudo-random source (xmur3 string hash feeding mulberry32): fast, and the same seed gives
 * the same sequence on every process and version of Node.
 */
export function seededRandom(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  h ^= h >>> 16;
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
