// Contacts a flow holds for a person (a util_hodor step that is open): release one, or the selected,
// with continue-automation; the flow then takes them on from the hold.
import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import { when } from '../../ui/format';
import { type CellMeta, type Sort, VirtualTable } from '../../ui/VirtualTable';
import { fetchTaskPage, type TaskRow, useTaskLookups } from './useTaskLookups';

const HELD = { type: 'util_hodor', status: 'in_progress' };

export function HeldPage() {
  const queryClient = useQueryClient();
  const lookups = useTaskLookups();
  const [sort, setSort] = useState<Sort>({ field: 'created_at', direction: 'asc' });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);

  async function release(rows: Pick<TaskRow, 'lead_uuid' | 'flow_uuid' | 'contact_name'>[]) {
    setBusy(true);
    let released = 0;
    for (const row of rows) {
      try {
        const result = await call(
          api.PUT('/flows/api/tasks/continue-automation', {
            body: { lead_uuid: row.lead_uuid, ...(row.flow_uuid ? { flow_uuid: row.flow_uuid } : {}) },
          }),
        );
        released += result.released;
      } catch (error) {
        notifications.show({ color: 'red', message: `${row.contact_name}: ${messageOf(error)}` });
      }
    }
    setBusy(false);
    setSelected(new Set());
    if (released > 0) {
      notifications.show({
        color: 'green',
        message: `${released} ${released === 1 ? 'contact continues' : 'contacts continue'} in their flow.`,
      });
    }
    void queryClient.invalidateQueries({ queryKey: ['tasks'] });
  }

  const columns: (ColumnDef<TaskRow> & { id: string })[] = [
    { id: 'contact', header: 'Contact', accessorFn: (t) => t.contact_name },
    { id: 'flow', header: 'Flow', accessorFn: (t) => lookups.flowLabel(t.flow_uuid) },
    { id: 'sender', header: 'Sender', accessorFn: (t) => lookups.senderLabel(t.sender_profile_uuid) },
    { id: 'created_at', header: 'Held since', accessorFn: (t) => when(t.created_at) },
    {
      id: 'action',
      header: 'Action',
      meta: {
        render: (t) => (
          <Button
            size="xs"
            disabled={busy}
            aria-label={`Continue automation for ${t.contact_name}`}
            onClick={(e) => {
              e.stopPropagation();
              void release([t]);
            }}
          >
            Continue automation
          </Button>
        ),
      } satisfies CellMeta<TaskRow>,
    },
  ];

  return (
    <Stack>
      <Text>
        A flow’s hold step waits here until a person lets the contact go on. Continue the automation when you
        have done what the hold was for.
      </Text>
      {selected.size > 0 && (
        <Button
          w="fit-content"
          loading={busy}
          onClick={() => {
            const rows = queryClient
              .getQueriesData<{ data: TaskRow[] }>({ queryKey: ['tasks', 'held'] })
              .flatMap(([, page]) => page?.data ?? [])
              .filter((t) => selected.has(t.uuid));
            void release(rows);
          }}
        >
          Continue automation for {selected.size} selected
        </Button>
      )}
      <VirtualTable<TaskRow>
        caption="Held contacts"
        queryKey={['tasks', 'held', sort]}
        fetchPage={(offset, limit) => fetchTaskPage(HELD, sort, offset, limit)}
        columns={columns}
        columnVisibility={{}}
        sort={sort}
        sortable={['created_at']}
        onSort={setSort}
        selected={selected}
        onSelect={setSelected}
        rowLabel={(t) => t.contact_name}
        empty={
          <Text>No contact is held. Add a hold step to a flow to have people review contacts here.</Text>
        }
        height="calc(100vh - 300px)"
      />
    </Stack>
  );
}
