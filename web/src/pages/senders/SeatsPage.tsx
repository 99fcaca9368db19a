// LinkedIn seats: one browser per sender profile, logged in by the account's owner through the login
// link (the live view of the seat's own browser); status and what is wrong, run and stop.
import {
  Alert,
  Anchor,
  Badge,
  Button,
  CopyButton,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, messageOf } from '../../api';
import { fieldMessage } from '../../ui/field-error';
import { senderName, useSenders } from '../../ui/useSenders';
import { proxyLabel, SeatProxyDialog } from './SeatProxy';

const STATUS: Record<string, { label: string; color: string; help: string }> = {
  stopped: { label: 'Stopped', color: 'gray', help: 'Run it, or send its login link if it never logged in.' },
  initializing: { label: 'Logging in', color: 'blue', help: 'Someone is on its login page now.' },
  running: { label: 'Running', color: 'green', help: 'Logged in; flows act through it.' },
  login_issue: {
    label: 'Needs a login',
    color: 'orange',
    help: 'Open its login link and log in to LinkedIn.',
  },
  start_issue: { label: 'Cannot start', color: 'red', help: 'Fix what the reason says, then run it again.' },
  running_issue: { label: 'Failing', color: 'red', help: 'The browser failed repeatedly; run it again.' },
};

export function SeatsPage() {
  const queryClient = useQueryClient();
  const { senders, byUuid } = useSenders();
  const [creating, setCreating] = useState(false);
  const [form, setForm] = useState<{ sender: string | null; driver: string; name: string }>({
    sender: null,
    driver: 'chromium',
    name: '',
  });
  const [link, setLink] = useState<string>();
  const [proxyOf, setProxyOf] = useState<{ id: number; who: string }>();
  const seats = useQuery({
    queryKey: ['seats'],
    queryFn: () => call(api.POST('/browsers/api/linkedin-browsers/list', { body: { limit: 1000 } })),
    refetchInterval: 10_000,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['seats'] });
  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/browsers/api/linkedin-browsers', {
          body: {
            sender_profile_uuid: form.sender ?? '',
            driver: form.driver as 'chromium',
            ...(form.name ? { name: form.name } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setCreating(false);
      refresh();
    },
  });
  const act = useMutation({
    mutationFn: async ({ id, action }: { id: number; action: 'run' | 'stop' | 'link' }) => {
      const path = { params: { path: { id } } };
      if (action === 'run') return call(api.POST('/browsers/api/linkedin-browsers/{id}/run', path));
      if (action === 'stop') return call(api.POST('/browsers/api/linkedin-browsers/{id}/stop', path));
      const key = await call(
        api.POST('/browsers/api/linkedin-browsers/{id}/generate-external-access-key', path),
      );
      setLink(key.cloud_browser_url);
      return key;
    },
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const rows = seats.data?.data ?? [];
  const free = senders.filter((s) => !rows.some((r) => r.sender_profile_uuid === s.uuid));

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Text>
          A seat is the browser a sender profile uses on LinkedIn. Its owner logs in through the login link;
          no password is shared.
        </Text>
        <Button onClick={() => setCreating(true)} disabled={free.length === 0}>
          Connect LinkedIn
        </Button>
      </Group>
      {seats.isSuccess && rows.length === 0 && (
        <Text>
          No LinkedIn seat yet. Connect one for a sender profile
          {senders.length === 0 ? ' (create a sender profile first)' : ''}.
        </Text>
      )}
      {rows.length > 0 && (
        <Table aria-label="LinkedIn seats">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Sender</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>What to do</Table.Th>
              <Table.Th>Proxy</Table.Th>
              <Table.Th>
                <span className="lf-visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((seat) => {
              const sender = byUuid.get(seat.sender_profile_uuid);
              const who = seat.name ?? (sender ? senderName(sender) : 'Seat');
              const status = STATUS[seat.status] ?? { label: seat.status, color: 'gray', help: '' };
              return (
                <Table.Tr key={seat.id}>
                  <Table.Td>{who}</Table.Td>
                  <Table.Td>{seat.driver === 'sandbox' ? 'Sandbox (simulated)' : 'Browser'}</Table.Td>
                  <Table.Td>
                    <Badge color={status.color}>{status.label}</Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{seat.error_reason ?? status.help}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {proxyLabel(seat)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Proxy of ${who}`}
                        onClick={() => setProxyOf({ id: seat.id, who })}
                      >
                        Proxy
                      </Button>
                      {seat.driver === 'chromium' && (
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Login link of ${who}`}
                          onClick={() => act.mutate({ id: seat.id, action: 'link' })}
                        >
                          Login link
                        </Button>
                      )}
                      {seat.status === 'running' || seat.status === 'initializing' ? (
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Stop ${who}`}
                          onClick={() => act.mutate({ id: seat.id, action: 'stop' })}
                        >
                          Stop
                        </Button>
                      ) : (
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Run ${who}`}
                          onClick={() => act.mutate({ id: seat.id, action: 'run' })}
                        >
                          Run
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="Connect LinkedIn">
        <form onSubmit={submit}>
          <Stack>
            <Select
              label="Sender profile"
              required
              data={free.map((s) => ({ value: s.uuid, label: senderName(s) }))}
              value={form.sender}
              onChange={(sender) => setForm((f) => ({ ...f, sender }))}
              error={fieldMessage(create.error, 'sender_profile_uuid')}
            />
            <Select
              label="Kind"
              data={[
                { value: 'chromium', label: 'A real browser (the owner logs in)' },
                { value: 'sandbox', label: 'Sandbox: the simulated network, for trying things out' },
              ]}
              value={form.driver}
              onChange={(driver) => setForm((f) => ({ ...f, driver: driver ?? 'chromium' }))}
              allowDeselect={false}
            />
            <TextInput
              label="Name"
              placeholder="e.g. Anna - sales"
              value={form.name}
              onChange={(e) => setForm((f) => ({ ...f, name: e.currentTarget.value }))}
              error={fieldMessage(create.error, 'name')}
            />
            {create.error &&
              !fieldMessage(create.error, 'sender_profile_uuid') &&
              !fieldMessage(create.error, 'name') && (
                <Alert color="red" role="alert">
                  {create.error.message}
                </Alert>
              )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setCreating(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create seat
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <SeatProxyDialog
        seat={rows.find((r) => r.id === proxyOf?.id)}
        who={proxyOf?.who ?? ''}
        onClose={() => setProxyOf(undefined)}
      />
      <Modal opened={link !== undefined} onClose={() => setLink(undefined)} title="Login link">
        <Stack>
          <Text size="sm">
            Send this link to the account’s owner, or open it yourself: it shows the seat’s own browser on
            LinkedIn’s login page. It works for 7 days; a new link revokes it.
          </Text>
          <TextInput
            label="Login link"
            readOnly
            value={link ?? ''}
            onFocus={(e) => e.currentTarget.select()}
          />
          <Group justify="space-between">
            <Anchor href={link} target="_blank" rel="noopener">
              Open the login page
            </Anchor>
            <Group gap="xs">
              <CopyButton value={link ?? ''}>
                {({ copied, copy }) => (
                  <Button variant="default" onClick={copy}>
                    {copied ? 'Copied' : 'Copy link'}
                  </Button>
                )}
              </CopyButton>
              <Button onClick={() => setLink(undefined)}>Done</Button>
            </Group>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
