// The inbox's conversation pages as a TanStack Query entry, shared by the page and the /inbox route's
// loader: the loader reads the senders and the first page as soon as the session is known, while the
// page's chunk loads and renders.
import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import { api, call } from '../../api';
import { sessionQuery } from '../../session';
import { contactsByUuid } from '../../ui/contacts-by-uuid';
import { readStored } from '../../ui/stored';
import { sendersQuery } from '../../ui/useSenders';
import type { InboxPage } from './ConversationList';

export const INBOX_PAGE_SIZE = 50;
export type Channel = 'all' | 'linkedin' | 'email';
export type InboxFilter = {
  channel?: 'linkedin' | 'email';
  sender_profile_uuid?: string[];
  unread?: boolean;
};

/** The list's filter: the channel, my senders unless `everyone`, unread only. */
export function inboxFilter(o: { channel: Channel; everyone: boolean; mine: string[]; unreadOnly: boolean }) {
  return {
    ...(o.channel === 'all' ? {} : { channel: o.channel }),
    ...(o.everyone ? {} : { sender_profile_uuid: o.mine }),
    ...(o.unreadOnly ? { unread: true } : {}),
  } satisfies InboxFilter;
}

export function inboxQuery(query: InboxFilter) {
  return infiniteQueryOptions({
    queryKey: ['inbox', 'list', query],
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<InboxPage> => {
      const page = await call(
        api.GET('/leads/api/inbox', {
          params: { query: { ...query, limit: INBOX_PAGE_SIZE, offset: pageParam } },
        }),
      );
      return { ...page, contacts: await contactsByUuid(page.data.map((c) => c.lead_uuid)) };
    },
    getNextPageParam: (last, all) => (last.has_more ? all.length * INBOX_PAGE_SIZE : undefined),
  });
}

/** Reads the senders, then the first page the list will show (the stored channel and "everyone"). */
export async function prefetchInbox(queryClient: QueryClient): Promise<void> {
  const session = queryClient.getQueryData(sessionQuery.queryKey);
  if (!session) return;
  const senders = (await queryClient.ensureQueryData(sendersQuery)).data;
  const everyone = readStored('inbox.everyone', false);
  const mine = senders.filter((s) => s.assignee_user_id === session.user.id).map((s) => s.uuid);
  if (!everyone && mine.length === 0) return;
  const channel = readStored<Channel>('inbox.channel', 'all');
  await queryClient.prefetchInfiniteQuery(
    inboxQuery(inboxFilter({ channel, everyone, mine, unreadOnly: false })),
  );
}
