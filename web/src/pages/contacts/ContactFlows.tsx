// The flows a contact is or was in: status and why it ended; remove it from a live one, or add it to
// another flow (a contact enters a flow once).
import { Badge, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import { when } from '../../ui/format';

const STATUS: Record<string, { label: string; color: string }> = {
  in_progress: { label: 'Running', color: 'green' },
  paused: { label: 'Paused', color: 'yellow' },
  finished: { label: 'Finished', color: 'blue' },
  canceled: { label: 'Removed', color: 'gray' },
  failed: { label: 'Failed', color: 'red' },
};

export function ContactFlows(props: { leadUuid: string; name: string }) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(null);
  const key = ['contact-flows', props.leadUuid];
  const flows = useQuery({
    queryKey: ['flows', 'names'],
    queryFn: () => call(api.GET('/flows/api/flows', { params: { query: { limit: 1000 } } })),
  });
  const enrollments = useQuery({
    queryKey: key,
    queryFn: () =>
      call(
        api.POST('/flows/api/flows-leads/list', {
          body: { filter: { lead_uuid: props.leadUuid }, limit: 100 },
        }),
      ),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: ['activities'] });
  };
  const add = useMutation({
    mutationFn: (flowUuid: string) =>
      call(
        api.POST('/flows/api/flows/{flowUuid}/leads/{leadUuid}', {
          params: { path: { flowUuid, leadUuid: props.leadUuid } },
          body: null,
        }),
      ),
    onSuccess: () => {
      notifications.show({ color: 'green', message: `${props.name} was added to the flow.` });
      setChosen(null);
      refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const cancel = useMutation({
    mutationFn: (flowUuid: string) =>
      call(
        api.PUT('/flows/api/flows/leads/{leadUuid}/cancel', {
          params: { path: { leadUuid: props.leadUuid } },
          body: { flow_uuids: [flowUuid] },
        }),
      ),
    onSuccess: () => {
      notifications.show({ color: 'green', message: `${props.name} was removed from the flow.` });
      refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const names = new Map((flows.data?.data ?? []).map((f) => [f.uuid, f.name]));
  const rows = enrollments.data?.data ?? [];
  const inFlows = new Set(rows.map((e) => e.flow_uuid));
  const choices = (flows.data?.data ?? []).filter((f) => f.status !== 'archived' && !inFlows.has(f.uuid));

  return (
    <Stack gap="xs">
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          In no flow yet. Add the contact to one below.
        </Text>
      ) : (
        <Table aria-label="Flows of the contact">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Flow</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Since</Table.Th>
              <Table.Th>
                <span className="lf-visually-hidden">Action</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((e) => {
              const name = names.get(e.flow_uuid) ?? 'Deleted flow';
              const live = e.status === 'in_progress' || e.status === 'paused';
              return (
                <Table.Tr key={e.uuid}>
                  <Table.Td>{name}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS[e.status]?.color}>{STATUS[e.status]?.label ?? e.status}</Badge>
                    {e.reason && !live ? ` ${e.reason}` : ''}
                  </Table.Td>
                  <Table.Td>{when(e.started_at ?? e.created_at)}</Table.Td>
                  <Table.Td>
                    {live && (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Remove from ${name}`}
                        loading={cancel.isPending && cancel.variables === e.flow_uuid}
                        onClick={() => cancel.mutate(e.flow_uuid)}
                      >
                        Remove
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Group align="end" gap="xs">
        <Select
          label="Add to flow"
          placeholder={choices.length ? 'Choose a flow' : 'No other flow'}
          data={choices.map((f) => ({ value: f.uuid, label: f.name }))}
          value={chosen}
          onChange={setChosen}
          searchable
          w={240}
        />
        <Button disabled={!chosen} loading={add.isPending} onClick={() => chosen && add.mutate(chosen)}>
          Add
        </Button>
      </Group>
    </Stack>
  );
}
