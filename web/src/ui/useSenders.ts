// The team's sender profiles (the people and accounts that act), with the name a person calls each by.
import type { paths } from '@leadflow/sdk';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, call } from '../api';

export type Sender =
  paths['/flows/api/sender-profiles']['get']['responses']['200']['content']['application/json']['data'][number];

export function senderName(sender: Pick<Sender, 'first_name' | 'last_name' | 'label'>): string {
  const name = [sender.first_name, sender.last_name].filter(Boolean).join(' ');
  return sender.label ? `${name} (${sender.label})` : name;
}

export const sendersQuery = queryOptions({
  queryKey: ['sender-profiles', 'all'],
  queryFn: () => call(api.GET('/flows/api/sender-profiles', { params: { query: { limit: 1000 } } })),
});

export function useSenders() {
  const query = useQuery(sendersQuery);
  const senders = query.data?.data ?? [];
  return { query, senders, byUuid: new Map(senders.map((s) => [s.uuid, s])) };
}
