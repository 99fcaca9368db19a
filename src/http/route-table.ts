// Every route's method and path, to say truthfully what a path answers when the router cannot: which
// methods it takes (405 with Allow), and whether a parameter segment holds a literal that names another
// route (`/leads/api/leads/search` is the search path, never a contact `{uuid}`).

type Segment = { literal: string } | { param: true } | { wildcard: true };

export type RouteEntry = { method: string; url: string; summary: string | undefined };

type Pattern = RouteEntry & { segments: Segment[] };

const splitPath = (path: string) => path.replace(/\/+$/, '').split('/');

function parse(url: string): Segment[] {
  return splitPath(url).map((segment) =>
    segment === '*' ? { wildcard: true } : segment.startsWith(':') ? { param: true } : { literal: segment },
  );
}

/** How a segment ranks when several routes match one path: the router prefers literals, then params. */
const rank = (segment: Segment) => ('literal' in segment ? 2 : 'param' in segment ? 1 : 0);

function matches(segments: Segment[], parts: string[]): boolean {
  for (const [index, segment] of segments.entries()) {
    if ('wildcard' in segment) return true;
    const part = parts[index];
    if (part === undefined) return false;
    if ('literal' in segment ? segment.literal !== part : part === '') return false;
  }
  return segments.length === parts.length;
}

/** Left to right, a literal beats a parameter beats a wildcard (positive: `a` is more specific). */
function compareSpecificity(a: Segment[], b: Segment[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const difference = rank(a[index]!) - rank(b[index]!);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** A prefix's shape (literals kept, parameters as ':'): routes that share it are siblings below it. */
const shapeKey = (segments: Segment[]) =>
  segments.map((s) => ('literal' in s ? s.literal : 'param' in s ? ':' : '*')).join('/');

export type RouteTable = {
  add(route: RouteEntry): void;
  /** The routes of the most specific path that matches `path`, one per method. */
  routesAt(path: string): RouteEntry[];
  /**
   * Whether a parameter of `url` (the route the router chose) holds, in `path`, a literal some sibling
   * route has at that position: then the request was never meant for `url`.
   */
  shadowsParameter(url: string, path: string): boolean;
};

export function createRouteTable(): RouteTable {
  const patterns: Pattern[] = [];
  /** Literal segments by the shape of the prefix before them. */
  const literalsAfter = new Map<string, Set<string>>();

  const shadowed = (segments: Segment[], parts: string[]) =>
    segments.some(
      (segment, index) =>
        'param' in segment &&
        literalsAfter.get(shapeKey(segments.slice(0, index)))?.has(parts[index] ?? '') === true,
    );

  return {
    add(route) {
      const segments = parse(route.url);
      patterns.push({ ...route, segments });
      for (const [index, segment] of segments.entries()) {
        if (!('literal' in segment)) continue;
        const key = shapeKey(segments.slice(0, index));
        const literals = literalsAfter.get(key) ?? new Set<string>();
        literals.add(segment.literal);
        literalsAfter.set(key, literals);
      }
    },
    routesAt(path) {
      const parts = splitPath(path);
      const matching = patterns.filter((p) => matches(p.segments, parts) && !shadowed(p.segments, parts));
      if (matching.length === 0) return [];
      const best = matching.reduce((a, b) => (compareSpecificity(b.segments, a.segments) > 0 ? b : a));
      return matching.filter((p) => compareSpecificity(p.segments, best.segments) === 0);
    },
    shadowsParameter: (url, path) => shadowed(parse(url), splitPath(path)),
  };
}
/**
 * The 405 message: what each allowed method does here and, for a GET on a path that lists nothing, the
 * operation that lists (a POST to `/search` or `/list` below it) - never just "use POST" when that POST
 * would create records.
 */
export function methodNotAllowedMessage(
  table: RouteTable,
  method: string,
  path: string,
  allowed: RouteEntry[],
): string {
  const described = allowed
    .filter((route) => route.method !== 'HEAD')
    .map((route) => (route.summary ? `${route.method} (${route.summary})` : route.method));
  let message = `${method} is not allowed on ${path}; it answers ${described.join(', ')}.`;
  if (method === 'GET' || method === 'HEAD') {
    const trimmed = path.replace(/\/+$/, '');
    const listing = ['search', 'list']
      .flatMap((suffix) => table.routesAt(`${trimmed}/${suffix}`))
      .find((route) => route.url.endsWith('/search') || route.url.endsWith('/list'));
    if (listing) {
      message += ` To list, use ${listing.method} ${listing.url}${listing.summary ? ` (${listing.summary})` : ''}.`;
    }
  }
  return message;
}
