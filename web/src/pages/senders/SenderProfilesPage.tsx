// Sender profiles: who acts for the team (a LinkedIn seat and/or a mailbox each), their week and limits;
// create, edit, enable/disable.
import { Badge, Button, Drawer, Group, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import { type Sender, senderName, useSenders } from '../../ui/useSenders';
import { SenderForm } from './SenderForm';

export function SenderProfilesPage() {
  const queryClient = useQueryClient();
  const { senders, query } = useSenders();
  const [editing, setEditing] = useState<Sender | 'new'>();
  const toggle = useMutation({
    mutationFn: (s: Sender) =>
      call(
        s.status === 'enabled'
          ? api.PUT('/flows/api/sender-profiles/{uuid}/disable', { params: { path: { uuid: s.uuid } } })
          : api.PUT('/flows/api/sender-profiles/{uuid}/enable', { params: { path: { uuid: s.uuid } } }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['sender-profiles'] }),
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const days = (s: Sender) => {
    const blocks = (s.schedule as { timeblocks?: { dow: number }[] }).timeblocks ?? [];
    const names = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    return [...new Set(blocks.map((b) => b.dow))]
      .sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7))
      .map((d) => names[d])
      .join(' ');
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Text>
          A sender profile is a person the team writes as: its LinkedIn seat and mailbox act on its schedule
          and limits.
        </Text>
        <Button onClick={() => setEditing('new')}>New sender profile</Button>
      </Group>
      {query.isSuccess && senders.length === 0 ? (
        <Text>No sender profile yet. Create one, then connect its LinkedIn seat or mailbox.</Text>
      ) : (
        <Table aria-label="Sender profiles">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Time zone</Table.Th>
              <Table.Th>Days</Table.Th>
              <Table.Th>Connections a day</Table.Th>
              <Table.Th>
                <span className="lf-visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {senders.map((s) => (
              <Table.Tr key={s.uuid}>
                <Table.Td>{senderName(s)}</Table.Td>
                <Table.Td>
                  <Badge color={s.status === 'enabled' ? 'green' : 'gray'}>
                    {s.status === 'enabled' ? 'Enabled' : 'Disabled'}
                  </Badge>
                </Table.Td>
                <Table.Td>{(s.schedule as { timezone: string }).timezone}</Table.Td>
                <Table.Td>{days(s) || 'never'}</Table.Td>
                <Table.Td>{s.limits.linkedin_send_connection_request}</Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Edit ${senderName(s)}`}
                      onClick={() => setEditing(s)}
                    >
                      Edit
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`${s.status === 'enabled' ? 'Disable' : 'Enable'} ${senderName(s)}`}
                      onClick={() => toggle.mutate(s)}
                    >
                      {s.status === 'enabled' ? 'Disable' : 'Enable'}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Drawer
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        position="right"
        size="xl"
        title={editing === 'new' ? 'New sender profile' : editing ? `Edit ${senderName(editing)}` : ''}
      >
        {editing !== undefined && (
          <SenderForm sender={editing === 'new' ? undefined : editing} onDone={() => setEditing(undefined)} />
        )}
      </Drawer>
    </Stack>
  );
}
