// Every task of the team in one server-paged table with filters (status, kind, type, sender, flow);
// moves (complete, cancel, retry, skip) on the selected tasks or on all that match, after a confirmation
// that states how many.
import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { api, call, messageOf } from '../../api';
import { followMassResult } from '../../ui/bulk';
import { ColumnChooser } from '../../ui/ColumnChooser';
import { useConfirm } from '../../ui/confirm';
import { when } from '../../ui/format';
import { SavedViews, visibilityOf, visibleColumns } from '../../ui/SavedViews';
import { useStoredState } from '../../ui/useStoredState';
import { type CellMeta, type Sort, VirtualTable } from '../../ui/VirtualTable';
import { MANUAL_TYPES, STATUS_COLOR, STATUS_LABEL, typeLabel } from './task-meta';
import { fetchTaskPage, type TaskRow, useTaskLookups } from './useTaskLookups';

const MOVES = [
  { name: 'complete', label: 'Complete', note: 'Only to-dos that are open or failed change.' },
  { name: 'cancel', label: 'Cancel', note: 'Only to-dos that are open or failed change.' },
  { name: 'retry', label: 'Retry', note: 'Only failed tasks change.' },
  { name: 'skip', label: 'Skip', note: 'Open or failed tasks not yet handed to their channel change.' },
] as const;
type MoveName = (typeof MOVES)[number]['name'];

type Filters = { status: string; automation: string; type: string; sender: string; flow: string };
const ANY = '';
const DEFAULT_FILTERS: Filters = {
  status: 'in_progress',
  automation: 'manual',
  type: ANY,
  sender: ANY,
  flow: ANY,
};
const DEFAULT_SORT: Sort = { field: 'schedule_at', direction: 'asc' };

export function TaskListPage() {
  const queryClient = useQueryClient();
  const lookups = useTaskLookups();
  const { confirm, dialog } = useConfirm();
  const [filters, setFilters] = useStoredState<Filters>('tasks.filters', DEFAULT_FILTERS);
  const [sort, setSort] = useStoredState<Sort>('tasks.sort', DEFAULT_SORT);
  const [visibility, setVisibility] = useStoredState<Record<string, boolean>>('tasks.columns', {});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const filter = useMemo(() => {
    const f: Record<string, unknown> = {};
    if (filters.status) f.status = filters.status;
    if (filters.automation) f.automation = filters.automation;
    if (filters.type) f.type = filters.type;
    if (filters.sender) f.sender_profile_uuid = filters.sender;
    if (filters.flow) f.flow_uuid = filters.flow;
    return f;
  }, [filters]);
  const total = useQuery({
    queryKey: ['tasks', 'list', filter, sort, 0],
    queryFn: () => fetchTaskPage(filter, sort, 0, 100),
  }).data?.total;

  const set = (key: keyof Filters) => (value: string | null) => {
    setSelected(new Set());
    setFilters({ ...filters, [key]: value ?? ANY });
  };

  function runMove(move: MoveName, label: string, all: boolean) {
    const count = all ? (total ?? 0) : selected.size;
    const note = MOVES.find((m) => m.name === move)?.note;
    confirm(
      `${label} ${count} ${count === 1 ? 'task' : 'tasks'}${all ? ' (all that match the filters)' : ''}? ${note}`,
      `${label} ${count}`,
      async () => {
        try {
          const result = await call(
            api.PUT(`/flows/api/tasks/mass-${move}`, {
              body: all ? { filter } : { uuids: [...selected] },
            }),
          );
          await followMassResult(result, label, () => {
            setSelected(new Set());
            void queryClient.invalidateQueries({ queryKey: ['tasks'] });
          });
        } catch (error) {
          notifications.show({ color: 'red', message: messageOf(error) });
        }
      },
    );
  }

  const columns: (ColumnDef<TaskRow> & { id: string; header: string })[] = [
    { id: 'contact', header: 'Contact', accessorFn: (t) => t.contact_name },
    { id: 'type', header: 'Task', accessorFn: (t) => typeLabel(t.type) },
    {
      id: 'status',
      header: 'Status',
      accessorFn: (t) => STATUS_LABEL[t.status] ?? t.status,
      meta: {
        render: (t) => <Badge color={STATUS_COLOR[t.status]}>{STATUS_LABEL[t.status] ?? t.status}</Badge>,
      } satisfies CellMeta<TaskRow>,
    },
    { id: 'sender', header: 'Sender', accessorFn: (t) => lookups.senderLabel(t.sender_profile_uuid) },
    { id: 'flow', header: 'Flow', accessorFn: (t) => lookups.flowLabel(t.flow_uuid) },
    { id: 'schedule_at', header: 'Due', accessorFn: (t) => when(t.schedule_at) },
    { id: 'executed_at', header: 'Done', accessorFn: (t) => when(t.executed_at) },
    { id: 'error', header: 'Why', accessorFn: (t) => t.error_msg ?? '' },
  ];

  const columnIds = columns.map((c) => c.id);
  return (
    <Stack>
      <Group align="end" wrap="wrap">
        <SavedViews
          page="tasks"
          noun="tasks"
          current={{ filter: filters, sort, columns: visibleColumns(columnIds, visibility) }}
          onOpen={(view) => {
            setSelected(new Set());
            setFilters({ ...DEFAULT_FILTERS, ...(view.filter as Partial<Filters>) });
            setSort(view.sort ?? DEFAULT_SORT);
            setVisibility(visibilityOf(columnIds, view.columns, {}));
          }}
        />
        <ColumnChooser
          columns={columns.map((c) => ({ id: c.id, label: c.header }))}
          visibility={visibility}
          onChange={setVisibility}
        />
      </Group>
      <Group align="end" wrap="wrap">
        <Select
          label="Status"
          w={150}
          value={filters.status}
          onChange={set('status')}
          data={[
            { value: ANY, label: 'Any status' },
            ...Object.entries(STATUS_LABEL).map(([value, label]) => ({ value, label })),
          ]}
          allowDeselect={false}
        />
        <Select
          label="Kind"
          w={150}
          value={filters.automation}
          onChange={set('automation')}
          data={[
            { value: ANY, label: 'Any kind' },
            { value: 'manual', label: 'To-dos' },
            { value: 'auto', label: 'Flow steps' },
          ]}
          allowDeselect={false}
        />
        <Select
          label="Task type"
          w={230}
          value={filters.type}
          onChange={set('type')}
          data={[
            { value: ANY, label: 'Any type' },
            ...[...MANUAL_TYPES, 'email_send_message'].map((t) => ({ value: t, label: typeLabel(t) })),
          ]}
          allowDeselect={false}
        />
        <Select
          label="Sender"
          w={200}
          value={filters.sender}
          onChange={set('sender')}
          searchable
          data={[
            { value: ANY, label: 'Any sender' },
            ...lookups.senders.map((s) => ({ value: s.uuid, label: lookups.senderLabel(s.uuid) })),
          ]}
          allowDeselect={false}
        />
        <Select
          label="Flow"
          w={200}
          value={filters.flow}
          onChange={set('flow')}
          searchable
          data={[
            { value: ANY, label: 'Any flow' },
            ...lookups.flows.map((f) => ({ value: f.uuid, label: f.name })),
          ]}
          allowDeselect={false}
        />
      </Group>
      <Group gap="xs" role="group" aria-label="Move tasks">
        <Text size="sm">{selected.size > 0 ? `${selected.size} selected` : `${total ?? '…'} match`}</Text>
        {MOVES.map((move) => (
          <Button
            key={move.name}
            size="xs"
            variant="default"
            disabled={selected.size === 0}
            onClick={() => runMove(move.name, move.label, false)}
          >
            {move.label} selected
          </Button>
        ))}
        {MOVES.map((move) => (
          <Button
            key={`all-${move.name}`}
            size="xs"
            variant="subtle"
            disabled={!total}
            onClick={() => runMove(move.name, move.label, true)}
          >
            {move.label} all that match
          </Button>
        ))}
      </Group>
      <VirtualTable<TaskRow>
        caption="Tasks"
        queryKey={['tasks', 'list', filter, sort]}
        fetchPage={(offset, limit) => fetchTaskPage(filter, sort, offset, limit)}
        columns={columns}
        columnVisibility={visibility}
        sort={sort}
        sortable={['schedule_at', 'executed_at', 'created_at']}
        onSort={setSort}
        selected={selected}
        onSelect={setSelected}
        rowLabel={(t) => `${typeLabel(t.type)} for ${t.contact_name}`}
        empty={<Text>No task matches these filters. Change a filter, or see My day for today’s to-dos.</Text>}
        height="calc(100vh - 330px)"
      />
      {dialog}
    </Stack>
  );
}
