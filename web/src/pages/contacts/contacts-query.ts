// The contacts table's pages as TanStack Query entries, shared by the page and the /contacts route's
// loader: the loader asks for the first page as soon as the session is known, while the page's chunk
// loads and renders, so the first rows do not wait for React to get there.
import type { QueryClient } from '@tanstack/react-query';
import { api, call } from '../../api';
import { PAGE_SIZE } from '../../ui/paging';
import { readStored } from '../../ui/stored';
import type { Sort } from '../../ui/VirtualTable';
import type { Contact } from './contact';

export const DEFAULT_SORT: Sort = { field: 'created_at', direction: 'desc' };
export type ContactFilter = Record<string, unknown> | undefined;
type SortField = 'name' | 'company_name' | 'created_at' | 'updated_at';

/** The key the table caches the pages of one sort and filter under (the page number is appended). */
export function contactsKey(sort: Sort, filter: ContactFilter): readonly unknown[] {
  return ['contacts', 'search', sort, filter ?? null];
}

export function fetchContacts(sort: Sort, filter: ContactFilter, offset: number, limit: number) {
  return call(
    api.POST('/leads/api/leads/search', {
      body: {
        limit,
        offset,
        order_field: sort.field as SortField,
        order_type: sort.direction,
        ...(filter ? { filter } : {}),
      },
    }),
  ) as Promise<{ data: Contact[]; total: number }>;
}

/**
 * Starts reading the first page the table will show (the stored sort, no filter); with stored filters
 * the page itself asks, since custom-field conditions need the field definitions first.
 */
export function prefetchFirstContacts(queryClient: QueryClient): void {
  const conditions = readStored<unknown[]>('contacts.filters', []);
  if (Array.isArray(conditions) && conditions.length > 0) return;
  const sort = readStored<Sort>('contacts.sort', DEFAULT_SORT);
  void queryClient.prefetchQuery({
    queryKey: [...contactsKey(sort, undefined), 0],
    queryFn: () => fetchContacts(sort, undefined, 0, PAGE_SIZE),
  });
}
