// Mailboxes: the addresses sender profiles e-mail from, their health (sending, reading replies), on/off,
// and the errors their servers gave.
import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import { when } from '../../ui/format';
import { senderName, useSenders } from '../../ui/useSenders';
import { ConnectMailbox, checkInWords } from './ConnectMailbox';
import { ConnectOAuth, type OAuthProvider } from './ConnectOAuth';

const HEALTH: Record<string, { label: string; color: string }> = {
  ok: { label: 'works', color: 'green' },
  pending: { label: 'not checked yet', color: 'gray' },
  error: { label: 'failing', color: 'red' },
};

export function MailboxesPage() {
  const queryClient = useQueryClient();
  const { byUuid } = useSenders();
  const [connecting, setConnecting] = useState(false);
  const [oauth, setOauth] = useState<OAuthProvider>();
  const mailboxes = useQuery({
    queryKey: ['mailboxes'],
    queryFn: () => call(api.GET('/emails/api/mailboxes', { params: { query: { limit: 1000 } } })),
  });
  const errors = useQuery({
    queryKey: ['mailbox-errors'],
    queryFn: () =>
      call(api.GET('/emails/api/mailbox-errors', { params: { query: { limit: 50, order_type: 'desc' } } })),
  });
  const toggle = useMutation({
    mutationFn: async (m: { uuid: string; status: string }) => {
      const path = { params: { path: { uuid: m.uuid } } };
      if (m.status === 'inactive') {
        const activated = await call(api.PUT('/emails/api/mailboxes/{uuid}/activate', path));
        return checkInWords(activated);
      }
      await call(api.PUT('/emails/api/mailboxes/{uuid}/deactivate', path));
      return { ok: true, text: 'Deactivated: it neither sends nor reads replies now.' };
    },
    onSuccess: (result) => {
      notifications.show({ color: result.ok ? 'green' : 'red', message: result.text });
      void queryClient.invalidateQueries({ queryKey: ['mailboxes'] });
      void queryClient.invalidateQueries({ queryKey: ['mailbox-errors'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const rows = mailboxes.data?.data ?? [];
  const address = new Map(rows.map((m) => [m.uuid, m.email]));

  return (
    <Stack>
      <Group justify="space-between">
        <Text>
          A mailbox sends a sender profile’s e-mails and reads the replies. Its logins are checked when you
          connect it.
        </Text>
        <Group gap="xs">
          <Button onClick={() => setConnecting(true)}>Connect a mailbox</Button>
          <Button variant="default" onClick={() => setOauth('gmail')}>
            Connect Gmail
          </Button>
          <Button variant="default" onClick={() => setOauth('outlook')}>
            Connect Outlook
          </Button>
        </Group>
      </Group>
      {mailboxes.isSuccess && rows.length === 0 && (
        <Text>
          No mailbox yet. Connect one with its SMTP and IMAP settings, or a Gmail or Outlook account.
        </Text>
      )}
      {rows.length > 0 && (
        <Table aria-label="Mailboxes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Address</Table.Th>
              <Table.Th>Sender</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Sending</Table.Th>
              <Table.Th>Replies</Table.Th>
              <Table.Th>
                <span className="lf-visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((m) => {
              const sender = byUuid.get(m.sender_profile_uuid);
              return (
                <Table.Tr key={m.uuid}>
                  <Table.Td>{m.email}</Table.Td>
                  <Table.Td>{sender ? senderName(sender) : ''}</Table.Td>
                  <Table.Td>
                    <Badge color={m.status === 'active' ? 'green' : m.status === 'error' ? 'red' : 'gray'}>
                      {m.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{HEALTH[m.send_status]?.label ?? m.send_status}</Table.Td>
                  <Table.Td>{HEALTH[m.sync_status]?.label ?? m.sync_status}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`${m.status === 'inactive' ? 'Activate' : 'Deactivate'} ${m.email}`}
                      onClick={() => toggle.mutate(m)}
                    >
                      {m.status === 'inactive' ? 'Activate' : 'Deactivate'}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Title order={2} size="h4">
        Mailbox errors
      </Title>
      {errors.data?.data.length === 0 ? (
        <Text c="dimmed">No errors. Logins, sends and inbox reads that fail are listed here.</Text>
      ) : (
        <Table aria-label="Mailbox errors">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Mailbox</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>The server said</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {errors.data?.data.map((e) => (
              <Table.Tr key={e.uuid}>
                <Table.Td>{when(e.created_at)}</Table.Td>
                <Table.Td>{address.get(e.mailbox_uuid) ?? 'deleted mailbox'}</Table.Td>
                <Table.Td>
                  {e.error_type === 'auth'
                    ? 'Login'
                    : e.error_type === 'send'
                      ? 'Sending'
                      : 'Reading replies'}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConnectMailbox opened={connecting} onClose={() => setConnecting(false)} />
      <ConnectOAuth provider={oauth} onClose={() => setOauth(undefined)} />
    </Stack>
  );
}
