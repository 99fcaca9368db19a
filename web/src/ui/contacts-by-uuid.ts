// Contacts named by other records (tasks, conversations): fetched in one search by their uuids.
import { api, call } from '../api';
import type { Contact } from '../pages/contacts/contact';

/** The contacts of `uuids` (at most 1,000 distinct) by uuid; unknown or deleted ones are absent. */
export async function contactsByUuid(uuids: (string | null | undefined)[]): Promise<Map<string, Contact>> {
  const unique = [...new Set(uuids.filter((u): u is string => Boolean(u)))].slice(0, 1000);
  if (unique.length === 0) return new Map();
  const page = (await call(
    api.POST('/leads/api/leads/search', { body: { limit: unique.length, filter: { uuid: unique } } }),
  )) as { data: Contact[] };
  return new Map(page.data.map((c) => [c.uuid, c]));
}
