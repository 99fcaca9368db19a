// The contacts table's saved views: what a view holds for this table (filter rows, sort, visible columns),
// and a one-time move of the views an earlier version kept in this browser's storage to the server.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api';
import { useSession } from '../../session';
import {
  type SavedView,
  savedViewsKey,
  type ViewContent,
  visibilityOf,
  visibleColumns,
} from '../../ui/SavedViews';
import type { Sort } from '../../ui/VirtualTable';
import type { Condition } from './filter-model';

export type ContactsViewState = { conditions: Condition[]; visibility: Record<string, boolean>; sort: Sort };

export function contactsViewContent(state: ContactsViewState, columnIds: string[]): ViewContent {
  return {
    filter: { conditions: state.conditions },
    sort: state.sort,
    columns: visibleColumns(columnIds, state.visibility),
  };
}

export function contactsViewState(view: SavedView, columnIds: string[], fallback: ContactsViewState) {
  const conditions = view.filter.conditions;
  return {
    conditions: Array.isArray(conditions) ? (conditions as Condition[]) : [],
    visibility: visibilityOf(columnIds, view.columns, fallback.visibility),
    sort: view.sort ?? fallback.sort,
  };
}

/** Views saved in this browser before views moved to the server: sent there once, then forgotten here. */
export function useMoveLocalViews(columnIds: string[]) {
  const session = useSession();
  const queryClient = useQueryClient();
  const key = `leadflow.contacts.views.${session.user.id}.${session.team?.id ?? 0}`;
  useEffect(() => {
    const stored = window.localStorage.getItem(key);
    if (!stored) return;
    window.localStorage.removeItem(key);
    let views: (ContactsViewState & { name: string })[] = [];
    try {
      views = JSON.parse(stored);
    } catch {
      return;
    }
    void Promise.all(
      (Array.isArray(views) ? views : []).map((v) =>
        api.POST('/id/api/saved-views', {
          body: { page: 'contacts', name: v.name, ...contactsViewContent(v, columnIds) },
        }),
      ),
    ).then(() => queryClient.invalidateQueries({ queryKey: savedViewsKey('contacts') }));
  }, [key, columnIds, queryClient]);
}
