// The flow being edited: the tree and the flow's settings, with undo/redo (a list of drafts) and a copy
// in this browser's storage after every change, so a closed tab, a navigation or a failed save never
// loses work. The stored copy remembers which saved version it started from.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FlowDetail } from '../flow-types';
import { fromVersion, type Tree } from './tree';

export type Settings = Pick<
  FlowDetail,
  'name' | 'description' | 'schedule' | 'use_sender_schedule' | 'priority'
>;
export type Draft = { tree: Tree; settings: Settings };

const HISTORY = 200;
const storageKey = (flowUuid: string) => `leadflow.flow-draft.${flowUuid}`;

export function draftOf(flow: FlowDetail): Draft {
  return {
    tree: fromVersion(flow),
    settings: {
      name: flow.name,
      description: flow.description,
      schedule: flow.schedule,
      use_sender_schedule: flow.use_sender_schedule,
      priority: flow.priority,
    },
  };
}

type Stored = { base: string; savedAt: string; draft: Draft };

function readStored(flowUuid: string): Stored | null {
  try {
    const raw = localStorage.getItem(storageKey(flowUuid));
    return raw ? (JSON.parse(raw) as Stored) : null;
  } catch {
    return null;
  }
}

export function clearStoredDraft(flowUuid: string): void {
  localStorage.removeItem(storageKey(flowUuid));
}

export function useDraft(flow: FlowDetail) {
  const saved = useMemo(() => draftOf(flow), [flow]);
  const savedJson = useMemo(() => JSON.stringify(saved), [saved]);
  // A stored copy of this flow's draft wins over the server's version it started from.
  const [restored] = useState(() => {
    const stored = readStored(flow.uuid);
    return stored && JSON.stringify(stored.draft) !== savedJson ? stored : null;
  });
  const [state, setState] = useState(() => ({
    past: [] as Draft[],
    present: restored?.draft ?? saved,
    future: [] as Draft[],
  }));
  const base = useRef(flow.flow_version_uuid);

  const dirty = JSON.stringify(state.present) !== savedJson;

  useEffect(() => {
    if (dirty) {
      const stored: Stored = { base: base.current, savedAt: new Date().toISOString(), draft: state.present };
      localStorage.setItem(storageKey(flow.uuid), JSON.stringify(stored));
    } else clearStoredDraft(flow.uuid);
  }, [dirty, state.present, flow.uuid]);

  /** Applies an edit; `coalesce` merges it into the last step (typing in one field is one undo step). */
  const change = useCallback((edit: (draft: Draft) => Draft, coalesce?: string) => {
    setState((s) => {
      const next = edit(s.present);
      if (next === s.present) return s;
      const merge = coalesce !== undefined && lastCoalesce.current === coalesce;
      lastCoalesce.current = coalesce;
      return {
        past: merge ? s.past : [...s.past, s.present].slice(-HISTORY),
        present: next,
        future: [],
      };
    });
  }, []);
  const lastCoalesce = useRef<string | undefined>(undefined);

  const undo = useCallback(() => {
    lastCoalesce.current = undefined;
    setState((s) => {
      const previous = s.past[s.past.length - 1];
      return previous
        ? { past: s.past.slice(0, -1), present: previous, future: [s.present, ...s.future] }
        : s;
    });
  }, []);
  const redo = useCallback(() => {
    lastCoalesce.current = undefined;
    setState((s) => {
      const [next, ...rest] = s.future;
      return next ? { past: [...s.past, s.present], present: next, future: rest } : s;
    });
  }, []);
  /** After a save: the saved flow is the new starting point (history kept). */
  const rebase = useCallback((next: FlowDetail) => {
    base.current = next.flow_version_uuid;
    clearStoredDraft(next.uuid);
    setState((s) => ({ ...s, present: draftOf(next) }));
  }, []);
  const discard = useCallback(() => {
    clearStoredDraft(flow.uuid);
    setState({ past: [], present: saved, future: [] });
  }, [flow.uuid, saved]);

  return {
    draft: state.present,
    change,
    undo,
    redo,
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
    dirty,
    /** A stored draft was restored when the page opened (and whether it started from an older version). */
    restored: restored
      ? { savedAt: restored.savedAt, stale: restored.base !== flow.flow_version_uuid }
      : null,
    rebase,
    discard,
  };
}
