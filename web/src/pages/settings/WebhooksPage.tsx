// Webhooks: create (signing secret shown once), send a test, see the delivery log with replay, rotate the
// secret, switch on/off, delete. Only owners manage them.

import type { paths } from '@leadflow/sdk';
import { Badge, Button, Drawer, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call, messageOf } from '../../api';
import { useConfirm } from '../../ui/confirm';
import { when } from '../../ui/format';
import { ShownOnce } from '../../ui/ShownOnce';
import { OwnersOnly } from './OwnersOnly';

export function WebhooksPage() {
  return (
    <OwnersOnly what="webhooks">
      <Webhooks />
    </OwnersOnly>
  );
}

type WebhookEvent = NonNullable<
  paths['/integrations/api/webhooks']['post']['requestBody']
>['content']['application/json']['event'];

const STATUS_COLOR: Record<string, string> = { succeeded: 'green', failed: 'red', retrying: 'orange' };

function Webhooks() {
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const [form, setForm] = useState({ name: '', event: '' as WebhookEvent, target_url: '' });
  const [secret, setSecret] = useState<string>();
  const [open, setOpen] = useState<{ uuid: string; name: string }>();
  const events = useQuery({
    queryKey: ['webhook-events'],
    queryFn: () => call(api.GET('/integrations/api/webhooks/events')),
  });
  const webhooks = useQuery({
    queryKey: ['webhooks'],
    queryFn: () => call(api.GET('/integrations/api/webhooks', { params: { query: { limit: 100 } } })),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
  const failed = (error: unknown) => notifications.show({ color: 'red', message: messageOf(error) });
  // The form travels as the mutation's variables: the options' closure is refreshed only after a render's
  // effects, so a submit right after the last keystroke could send the form before it.
  const create = useMutation({
    mutationFn: (body: typeof form) => call(api.POST('/integrations/api/webhooks', { body })),
    onSuccess: (created, sent) => {
      setSecret(created.secret);
      setForm({ name: '', event: sent.event, target_url: '' });
      refresh();
    },
  });
  const test = useMutation({
    mutationFn: (uuid: string) => {
      const hook = webhooks.data?.data.find((w) => w.uuid === uuid);
      return call(
        api.POST('/integrations/api/webhooks/test', {
          body: { uuid, event: hook?.event as WebhookEvent, target_url: hook?.target_url ?? '' },
        }),
      );
    },
    onSuccess: () => notifications.show({ message: 'Test sent.' }),
    onError: failed,
  });
  const rotate = useMutation({
    mutationFn: (uuid: string) =>
      call(
        api.POST('/integrations/api/webhooks/{uuid}/rotate-secret', { params: { path: { uuid } }, body: {} }),
      ),
    onSuccess: (rotated) => setSecret(rotated.secret),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (uuid: string) =>
      call(api.DELETE('/integrations/api/webhooks/{uuid}', { params: { path: { uuid } } })),
    onSuccess: refresh,
    onError: failed,
  });
  const toggle = useMutation({
    mutationFn: (hook: { uuid: string; status: 'on' | 'off' }) =>
      call(
        api.PUT('/integrations/api/webhooks/{uuid}', {
          params: { path: { uuid: hook.uuid } },
          body: { status: hook.status === 'on' ? 'off' : 'on' },
        }),
      ),
    onSuccess: refresh,
    onError: failed,
  });
  const fieldError = (field: string) =>
    create.error instanceof ApiError ? create.error.fields[field]?.join(' ') : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(form);
  }

  const rows = webhooks.data?.data ?? [];
  return (
    <Stack>
      <Text>
        A webhook sends each event it is subscribed to as a signed POST to your URL (Standard Webhooks: verify
        with its signing secret).
      </Text>
      <form onSubmit={submit} aria-label="New webhook">
        <Group align="flex-start">
          <TextInput
            label="Name"
            required
            value={form.name}
            error={fieldError('name')}
            onChange={(e) => {
              const name = e.currentTarget.value;
              setForm((f) => ({ ...f, name }));
            }}
          />
          <Select
            label="Event"
            required
            searchable
            data={(events.data?.data ?? []).map((e) => ({ value: e.name, label: e.name }))}
            value={form.event || null}
            error={fieldError('event')}
            onChange={(value) => setForm((f) => ({ ...f, event: (value ?? '') as WebhookEvent }))}
          />
          <TextInput
            label="Target URL"
            required
            placeholder="https://hooks.example.com/leadflow"
            w={320}
            value={form.target_url}
            error={fieldError('target_url')}
            onChange={(e) => {
              const target_url = e.currentTarget.value;
              setForm((f) => ({ ...f, target_url }));
            }}
          />
          <Button type="submit" mt={25} loading={create.isPending}>
            Create webhook
          </Button>
        </Group>
        {create.error && !(create.error instanceof ApiError && Object.keys(create.error.fields).length) && (
          <Text c="red" role="alert">
            {create.error.message}
          </Text>
        )}
      </form>
      {rows.length === 0 && webhooks.isSuccess ? (
        <Text>No webhooks yet. Create one above to push events to your own tools.</Text>
      ) : (
        <Table aria-label="Webhooks">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Event</Table.Th>
              <Table.Th>Target</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <span className="lf-visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((hook) => (
              <Table.Tr key={hook.uuid}>
                <Table.Td>{hook.name}</Table.Td>
                <Table.Td>
                  <code>{hook.event}</code>
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{hook.target_url}</Table.Td>
                <Table.Td>
                  <Badge color={hook.status === 'on' ? 'green' : 'gray'}>{hook.status}</Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setOpen({ uuid: hook.uuid, name: hook.name })}
                    >
                      Deliveries
                    </Button>
                    <Button size="xs" variant="default" onClick={() => test.mutate(hook.uuid)}>
                      Test
                    </Button>
                    <Button size="xs" variant="default" onClick={() => toggle.mutate(hook)}>
                      {hook.status === 'on' ? 'Switch off' : 'Switch on'}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() =>
                        confirm(
                          'Rotate the signing secret? For a day deliveries carry signatures of both secrets.',
                          'Rotate',
                          () => rotate.mutate(hook.uuid),
                        )
                      }
                    >
                      Rotate secret
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      color="red"
                      onClick={() =>
                        confirm(`Delete the webhook “${hook.name}”?`, 'Delete', () =>
                          remove.mutate(hook.uuid),
                        )
                      }
                    >
                      Delete
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Drawer
        opened={open !== undefined}
        onClose={() => setOpen(undefined)}
        position="right"
        size="xl"
        title={`Deliveries of ${open?.name ?? ''}`}
      >
        {open && <Deliveries uuid={open.uuid} />}
      </Drawer>
      {dialog}
      <ShownOnce
        title="Signing secret"
        value={secret}
        note="Copy the signing secret now: receivers verify the webhook-signature header with it. It is shown only this once."
        onClose={() => setSecret(undefined)}
      />
    </Stack>
  );
}

function Deliveries(props: { uuid: string }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', props.uuid],
    queryFn: () =>
      call(
        api.GET('/integrations/api/webhooks/{uuid}/deliveries', {
          params: { path: { uuid: props.uuid }, query: { limit: 100 } },
        }),
      ),
    refetchInterval: 3000,
  });
  const replay = useMutation({
    mutationFn: (deliveryUuid: string) =>
      call(
        api.POST('/integrations/api/webhooks/{uuid}/deliveries/{deliveryUuid}/retry', {
          params: { path: { uuid: props.uuid, deliveryUuid } },
        }),
      ),
    onSuccess: () => {
      notifications.show({ message: 'Delivery queued again.' });
      void queryClient.invalidateQueries({ queryKey: ['webhook-deliveries', props.uuid] });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const rows = deliveries.data?.data ?? [];
  if (deliveries.isSuccess && rows.length === 0)
    return <Text>No deliveries yet: they appear here when the event happens (or press Test).</Text>;
  return (
    <Table aria-label="Deliveries">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Event</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>HTTP</Table.Th>
          <Table.Th>Attempts</Table.Th>
          <Table.Th>Last attempt</Table.Th>
          <Table.Th>
            <span className="lf-visually-hidden">Actions</span>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((d) => (
          <Table.Tr key={d.uuid}>
            <Table.Td>{d.event_name}</Table.Td>
            <Table.Td>
              <Badge color={STATUS_COLOR[d.status] ?? 'gray'}>{d.status}</Badge>
              {d.error && (
                <Text size="xs" c="red">
                  {d.error}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{d.status_code ?? '—'}</Table.Td>
            <Table.Td>{d.attempt}</Table.Td>
            <Table.Td>{when(d.last_attempt_at)}</Table.Td>
            <Table.Td>
              <Button size="xs" variant="default" onClick={() => replay.mutate(d.uuid)}>
                Replay
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
