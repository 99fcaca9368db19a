// A flow's contacts (/flows/{uuid}/contacts): who is in it, at which step, since when, what happens next
// and why it is waiting, why it ended or failed (and the failed steps by reason); stop a contact or move
// it to another flow. Everything through the public API (flows-leads/list, tasks/group-counts, cancel,
// move).
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Pagination,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import { useConfirm } from '../../ui/confirm';
import { contactsByUuid } from '../../ui/contacts-by-uuid';
import { when } from '../../ui/format';
import { senderName, useSenders } from '../../ui/useSenders';
import { labelOf } from './builder/node-meta';
import { flowDetailQuery } from './builder/queries';

const PAGE = 50;
const STATUSES = ['in_progress', 'paused', 'finished', 'canceled', 'failed'] as const;
const STATUS_LABEL: Record<string, string> = {
  in_progress: 'In progress',
  paused: 'Paused',
  finished: 'Finished',
  canceled: 'Stopped',
  failed: 'Failed',
};
const STATUS_COLOR: Record<string, string> = {
  in_progress: 'blue',
  paused: 'yellow',
  finished: 'green',
  canceled: 'gray',
  failed: 'red',
};
const live = (status: string) => status === 'in_progress' || status === 'paused';

/** What the contact waits for, in words. */
function nextText(e: { status: string; next_run_at: string | null; reason: string | null }) {
  if (!live(e.status)) return e.reason ? `Ended: ${e.reason.replaceAll('_', ' ')}` : 'Ended';
  if (e.status === 'paused') return `Paused${e.reason ? `: ${e.reason.replaceAll('_', ' ')}` : ''}`;
  if (!e.next_run_at) return 'Waiting for an event (acceptance, reply or a trigger)';
  return new Date(e.next_run_at) <= new Date()
    ? 'Due now: waiting for the schedule or the sender’s limits'
    : `Next step ${when(e.next_run_at)}`;
}

export function EnrollmentsPage() {
  const { flowUuid } = useParams({ from: '/app/flows/$flowUuid/contacts' });
  const queryClient = useQueryClient();
  const [status, setStatus] = useState('all');
  const [page, setPage] = useState(1);
  const [moving, setMoving] = useState<{ lead: string; name: string } | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const { byUuid: senders } = useSenders();
  const { dialog, confirm } = useConfirm();

  const flow = useQuery({ ...flowDetailQuery(flowUuid), staleTime: 15_000 });
  const metrics = useQuery({
    queryKey: ['flows', 'metrics', [flowUuid]],
    queryFn: () => call(api.POST('/flows/api/flows/metrics', { body: { uuids: [flowUuid] } })),
  });
  const failures = useQuery({
    queryKey: ['flows', 'failures', flowUuid],
    queryFn: () =>
      call(
        api.POST('/flows/api/tasks/group-counts', {
          body: { group_field: 'automation_error_code', filter: { flow_uuid: flowUuid, status: 'failed' } },
        }),
      ),
  });
  const list = useQuery({
    queryKey: ['flows', 'enrollments', flowUuid, status, page],
    queryFn: async () => {
      const filter =
        status === 'all'
          ? { flow_uuid: flowUuid }
          : { flow_uuid: flowUuid, status: status as (typeof STATUSES)[number] };
      const result = await call(
        api.POST('/flows/api/flows-leads/list', { body: { filter, limit: PAGE, offset: (page - 1) * PAGE } }),
      );
      return { ...result, contacts: await contactsByUuid(result.data.map((e) => e.lead_uuid)) };
    },
    refetchInterval: 15_000,
  });
  const flows = useQuery({
    queryKey: ['flows', 'names'],
    queryFn: () => call(api.GET('/flows/api/flows', { params: { query: { limit: 1000 } } })),
    enabled: moving !== null,
  });

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['flows'] });
  const stop = useMutation({
    mutationFn: (lead: string) =>
      call(
        api.PUT('/flows/api/flows/leads/{leadUuid}/cancel', {
          params: { path: { leadUuid: lead } },
          body: { flow_uuids: [flowUuid] },
        }),
      ),
    onSuccess: () => {
      notifications.show({ message: 'Stopped: the contact’s pending steps are canceled.' });
      refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const move = useMutation({
    // One call, one transaction: when the other flow refuses the contact, it stays in this one.
    mutationFn: ({ lead, to }: { lead: string; to: string }) =>
      call(
        api.PUT('/flows/api/flows/{flowUuid}/leads/{leadUuid}/move', {
          params: { path: { flowUuid, leadUuid: lead } },
          body: { to_flow_uuid: to },
        }),
      ),
    onSuccess: () => {
      notifications.show({ message: 'Moved: the contact starts the other flow from its first step.' });
      setMoving(null);
      setTarget(null);
      refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });

  const counts = metrics.data?.[flowUuid];
  const nodeLabel = new Map((flow.data?.nodes ?? []).map((n) => [n.id, labelOf(n.type)]));
  const name = flow.data?.name ?? '…';
  const failed = Object.entries(failures.data ?? {}).filter(([, n]) => n > 0);

  return (
    <Stack gap="md">
      <Group gap="sm">
        <Button
          renderRoot={(props) => <Link {...props} to="/flows/$flowUuid" params={{ flowUuid }} />}
          variant="subtle"
          size="compact-sm"
        >
          ← Builder
        </Button>
        <Title order={1} size="h2">
          Contacts in {name}
        </Title>
      </Group>
      <SegmentedControl
        aria-label="Status"
        value={status}
        onChange={(value) => {
          setStatus(value);
          setPage(1);
        }}
        data={[
          { value: 'all', label: `All (${counts?.leads_count ?? '…'})` },
          ...STATUSES.map((s) => ({
            value: s,
            label: `${STATUS_LABEL[s]} (${counts ? counts[`${s}_leads_count` as keyof typeof counts] : '…'})`,
          })),
        ]}
      />
      {failed.length > 0 && (
        <Alert color="red" title="Failed steps by reason">
          {failed
            .map(([code, n]) => `${code === '' ? 'no reason recorded' : code.replaceAll('_', ' ')}: ${n}`)
            .join(' · ')}
        </Alert>
      )}
      {!list.data ? (
        <Loader aria-label="Loading contacts" />
      ) : list.data.total === 0 ? (
        <Text>
          {status === 'all'
            ? 'No contact in this flow yet. Add contacts from the Contacts page (select them, then "Add to flow"), or give a contact source a list or tag in the builder.'
            : 'No contact with this status.'}{' '}
          <Anchor component={Link} to="/contacts">
            Go to Contacts
          </Anchor>
        </Text>
      ) : (
        <>
          <Table striped aria-label="Contacts in this flow">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Contact</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Step</Table.Th>
                <Table.Th>Since</Table.Th>
                <Table.Th>Next</Table.Th>
                <Table.Th>Sender</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((e) => {
                const contact = list.data.contacts.get(e.lead_uuid);
                const who = contact
                  ? [contact.first_name, contact.last_name].filter(Boolean).join(' ') || e.lead_uuid
                  : e.lead_uuid;
                const sender = e.sender_profile_uuid ? senders.get(e.sender_profile_uuid) : undefined;
                return (
                  <Table.Tr key={e.uuid}>
                    <Table.Td>
                      <Anchor
                        renderRoot={(props) => (
                          <Link {...props} to="/contacts/$uuid" params={{ uuid: e.lead_uuid }} />
                        )}
                      >
                        {who}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[e.status]} variant="light">
                        {STATUS_LABEL[e.status] ?? e.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {e.flow_node_id === null
                        ? '—'
                        : `${e.flow_node_id}: ${nodeLabel.get(e.flow_node_id) ?? 'removed step'}`}
                    </Table.Td>
                    <Table.Td>{when(e.started_at ?? e.created_at)}</Table.Td>
                    <Table.Td>{nextText(e)}</Table.Td>
                    <Table.Td>{sender ? senderName(sender) : 'Not assigned yet'}</Table.Td>
                    <Table.Td>
                      {live(e.status) && (
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="compact-xs"
                            variant="default"
                            aria-label={`Stop ${who}`}
                            onClick={() =>
                              confirm(
                                `Stop ${who} in this flow? Its pending steps are canceled; a contact enters a flow once, so it cannot come back to this one.`,
                                'Stop',
                                () => stop.mutate(e.lead_uuid),
                              )
                            }
                          >
                            Stop
                          </Button>
                          <Button
                            size="compact-xs"
                            variant="default"
                            aria-label={`Move ${who} to another flow`}
                            onClick={() => setMoving({ lead: e.lead_uuid, name: who })}
                          >
                            Move
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          {list.data.total > PAGE && (
            <Pagination
              aria-label="Pages"
              total={Math.ceil(list.data.total / PAGE)}
              value={page}
              onChange={setPage}
            />
          )}
        </>
      )}
      {dialog}
      <Modal
        opened={moving !== null}
        onClose={() => setMoving(null)}
        title={`Move ${moving?.name ?? ''} to another flow`}
      >
        <Stack>
          <Text size="sm">
            It leaves this flow (its pending steps are canceled) and starts the other one from its first step.
          </Text>
          <Select
            label="Flow"
            placeholder="Choose a flow"
            value={target}
            onChange={setTarget}
            data={(flows.data?.data ?? [])
              .filter((f) => f.uuid !== flowUuid && f.status !== 'archived')
              .map((f) => ({ value: f.uuid, label: f.name }))}
          />
          <Button
            disabled={!target}
            loading={move.isPending}
            onClick={() => moving && target && move.mutate({ lead: moving.lead, to: target })}
          >
            Move
          </Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
