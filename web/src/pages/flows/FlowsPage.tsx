// Flows: every flow of the team by folder, with its status, priority, contacts in progress / finished /
// failed, pending tasks, acceptance and reply rates and the warnings that say why it cannot run; start,
// stop, archive, clone and delete from the row.
import {
  Alert,
  Anchor,
  Badge,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { api, call } from '../../api';
import { useStoredState } from '../../ui/useStoredState';
import { FlowActions } from './FlowActions';
import type { Flow, FlowMetrics, FlowStatus } from './flow-types';
import { NewFlowButton } from './NewFlowButton';
import { acceptanceRate, percent, replyRate } from './rates';
import { WorkspaceControls } from './WorkspaceControls';

const STATUS_COLOR: Record<FlowStatus, string> = {
  on: 'green',
  off: 'gray',
  draft: 'blue',
  archived: 'dark',
};
export const STATUS_LABEL: Record<FlowStatus, string> = {
  on: 'Running',
  off: 'Stopped',
  draft: 'Draft',
  archived: 'Archived',
};
const NO_FOLDER = 'none';

export function FlowsPage() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [folder, setFolder] = useStoredState<string>('flows.folder', 'all');
  const [showArchived, setShowArchived] = useState(false);

  const workspaces = useQuery({
    queryKey: ['flow-workspaces'],
    queryFn: () => call(api.GET('/flows/api/flow-workspaces', { params: { query: { limit: 1000 } } })),
  });
  const filter = useMemo(() => {
    const f: Record<string, unknown> = {};
    if (q) f.q = q;
    if (folder === NO_FOLDER) f.flow_workspace_uuid = 'is_null';
    else if (folder !== 'all') f.flow_workspace_uuid = folder;
    // Query parameters carry scalars only: archived flows are asked for, the others filtered here.
    if (showArchived) f.status = 'archived';
    return f;
  }, [q, folder, showArchived]);
  const flows = useQuery({
    queryKey: ['flows', 'list', filter],
    queryFn: () =>
      call(
        api.GET('/flows/api/flows', {
          params: { query: { limit: 1000, order_field: 'priority', order_type: 'desc', filter } },
        }),
      ),
  });
  const rows = (flows.data?.data ?? []).filter((f) => showArchived || f.status !== 'archived');
  const uuids = rows.map((f) => f.uuid);
  const metrics = useQuery({
    queryKey: ['flows', 'metrics', uuids],
    queryFn: () => call(api.POST('/flows/api/flows/metrics', { body: { uuids } })),
    enabled: uuids.length > 0,
  });

  const folderName = new Map((workspaces.data?.data ?? []).map((w) => [w.uuid, w.name]));

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Flows
        </Title>
        <NewFlowButton workspace={folder !== 'all' && folder !== NO_FOLDER ? folder : null} />
      </Group>
      <Group align="end">
        <TextInput
          aria-label="Search flows"
          placeholder="Search by name…"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={260}
        />
        <Select
          label="Folder"
          value={folder}
          onChange={(value) => setFolder(value ?? 'all')}
          allowDeselect={false}
          w={220}
          data={[
            { value: 'all', label: 'All folders' },
            { value: NO_FOLDER, label: 'No folder' },
            ...(workspaces.data?.data ?? []).map((w) => ({ value: w.uuid, label: w.name })),
          ]}
        />
        <WorkspaceControls
          selected={folder !== 'all' && folder !== NO_FOLDER ? folder : null}
          onSelect={setFolder}
        />
        <Switch
          label="Archived flows"
          checked={showArchived}
          onChange={(e) => setShowArchived(e.currentTarget.checked)}
        />
      </Group>
      {flows.isError && (
        <Alert color="red" role="alert">
          {flows.error.message}
        </Alert>
      )}
      {flows.data && rows.length === 0 ? (
        <Text py="xl">
          {q || folder !== 'all' || showArchived
            ? 'No flow matches. Change the search or the folder.'
            : 'No flows yet. Create one with New flow, then add steps in the builder.'}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={1000}>
          <Table aria-label="Flows" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Priority</Table.Th>
                <Table.Th ta="right">In progress</Table.Th>
                <Table.Th ta="right">Finished</Table.Th>
                <Table.Th ta="right">Failed</Table.Th>
                <Table.Th ta="right">Pending tasks</Table.Th>
                <Table.Th ta="right">Acceptance</Table.Th>
                <Table.Th ta="right">Replies</Table.Th>
                <Table.Th>
                  <span className="lf-visually-hidden">Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((flow) => (
                <FlowRow
                  key={flow.uuid}
                  flow={flow}
                  metrics={metrics.data?.[flow.uuid]}
                  folder={flow.flow_workspace_uuid ? folderName.get(flow.flow_workspace_uuid) : undefined}
                />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function FlowRow({ flow, metrics, folder }: { flow: Flow; metrics?: FlowMetrics; folder?: string }) {
  const pending = metrics ? Object.values(metrics.task_counts).reduce((a, b) => a + b, 0) : undefined;
  const number = (value: number | undefined) => (value === undefined ? '…' : value.toLocaleString());
  return (
    <Table.Tr>
      <Table.Td maw={360}>
        <Anchor
          fw={600}
          renderRoot={(props) => <Link {...props} to="/flows/$flowUuid" params={{ flowUuid: flow.uuid }} />}
        >
          {flow.name}
        </Anchor>
        {folder && (
          <Text size="xs" c="dimmed">
            {folder}
          </Text>
        )}
        {flow.warnings.map((warning) => (
          <Text key={warning.code} size="xs" c="orange.9" role="note">
            ⚠ {warning.message}
          </Text>
        ))}
      </Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLOR[flow.status]} variant={flow.status === 'on' ? 'filled' : 'light'}>
          {STATUS_LABEL[flow.status]}
        </Badge>
      </Table.Td>
      <Table.Td ta="right">{flow.priority}</Table.Td>
      <Table.Td ta="right">{number(metrics?.in_progress_leads_count)}</Table.Td>
      <Table.Td ta="right">{number(metrics?.finished_leads_count)}</Table.Td>
      <Table.Td ta="right">{number(metrics?.failed_leads_count)}</Table.Td>
      <Table.Td ta="right">{number(pending)}</Table.Td>
      <Table.Td ta="right">
        <Rate value={metrics ? acceptanceRate(metrics.conversions) : undefined} />
      </Table.Td>
      <Table.Td ta="right">
        <Rate value={metrics ? replyRate(metrics.conversions) : undefined} />
      </Table.Td>
      <Table.Td>
        <FlowActions flow={flow} />
      </Table.Td>
    </Table.Tr>
  );
}

function Rate({ value }: { value?: { rate: number | null; of: number } }) {
  if (!value) return <>…</>;
  if (value.rate === null) return <Text c="dimmed">–</Text>;
  return (
    <Tooltip label={`of ${value.of.toLocaleString()} sent`}>
      <span>{percent(value.rate)}</span>
    </Tooltip>
  );
}
