// The graph's boxes and edges keep their identity while what they show is unchanged. React Flow rebuilds
// (and measures again, hidden for a frame) every node object it has not seen, and redraws every edge
// object it has not seen; the builder rebuilds its lists on each draft change, so without this one
// keystroke that reaches the draft re-measured and redrew all 100 steps (`npm run bench -- builder`).
import { useRef } from 'react';

type Item = { id: string; data?: Record<string, unknown>; position?: { x: number; y: number } };

function sameData(a: Record<string, unknown> = {}, b: Record<string, unknown> = {}): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.is(a[k], b[k]));
}

function sameItem(a: Item, b: Item): boolean {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (key === 'data') {
      if (!sameData(a.data, b.data)) return false;
    } else if (key === 'position') {
      if (a.position?.x !== b.position?.x || a.position?.y !== b.position?.y) return false;
    } else if (!Object.is(x, y)) return false;
  }
  return true;
}

/**
 * `items` with each one replaced by the previous render's object of the same id when nothing it holds
 * changed (data compared field by field, positions by value); `fresh` finishes the others.
 */
export function useStableItems<T extends Item>(items: T[], fresh: (item: T) => T = (item) => item): T[] {
  const previous = useRef({ byId: new Map<string, { built: T; given: T }>(), list: [] as T[] });
  const byId = new Map<string, { built: T; given: T }>();
  const list = items.map((item) => {
    const before = previous.current.byId.get(item.id);
    const kept = before && sameItem(before.built, item) ? before : { built: item, given: fresh(item) };
    byId.set(item.id, kept);
    return kept.given;
  });
  // The same list when no item changed: React Flow then has nothing to adopt.
  const last = previous.current.list;
  if (list.length === last.length && list.every((item, i) => item === last[i])) return last;
  previous.current = { byId, list };
  return list;
}
