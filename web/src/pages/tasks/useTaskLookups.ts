// What the task tables show beside a task: its contact's name (fetched with each page), its sender's
// and its flow's names.
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api';
import { contactsByUuid } from '../../ui/contacts-by-uuid';
import { senderName, useSenders } from '../../ui/useSenders';
import { contactName } from '../contacts/contact';
import type { Task } from './task-meta';

export type TaskRow = Task & { contact_name: string };

/** One page of tasks matching `filter`, each with its contact's name. */
export async function fetchTaskPage(
  filter: Record<string, unknown>,
  sort: { field: string; direction: 'asc' | 'desc' },
  offset: number,
  limit: number,
): Promise<{ data: TaskRow[]; total: number }> {
  const page = await call(
    api.GET('/flows/api/tasks', {
      params: {
        query: {
          limit,
          offset,
          order_field: sort.field as 'created_at',
          order_type: sort.direction,
          filter: JSON.stringify(filter) as never,
        },
      },
    }),
  );
  const contacts = await contactsByUuid(page.data.map((t) => t.lead_uuid));
  return {
    total: page.total,
    data: page.data.map((t) => {
      const contact = contacts.get(t.lead_uuid);
      return { ...t, contact_name: contact ? contactName(contact) : 'Deleted contact' };
    }),
  };
}

export function useTaskLookups() {
  const { senders, byUuid } = useSenders();
  const flows = useQuery({
    queryKey: ['flows', 'names'],
    queryFn: () => call(api.GET('/flows/api/flows', { params: { query: { limit: 1000 } } })),
  });
  const flowNames = new Map((flows.data?.data ?? []).map((f) => [f.uuid, f.name]));
  return {
    senders,
    flows: flows.data?.data ?? [],
    senderLabel: (uuid: string | null) => {
      const sender = uuid ? byUuid.get(uuid) : undefined;
      return sender ? senderName(sender) : '';
    },
    flowLabel: (uuid: string | null) => (uuid ? (flowNames.get(uuid) ?? 'Deleted flow') : 'To-do'),
  };
}
