// API keys of the signed-in user: create (the secret is shown once, with a copy button) and revoke.
import { Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call, messageOf } from '../../api';
import { useConfirm } from '../../ui/confirm';
import { when } from '../../ui/format';
import { ShownOnce } from '../../ui/ShownOnce';
import { OwnersOnly } from './OwnersOnly';

export function ApiKeysPage() {
  return (
    <OwnersOnly what="API keys">
      <ApiKeys />
    </OwnersOnly>
  );
}

function ApiKeys() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [secret, setSecret] = useState<string>();
  const { confirm, dialog } = useConfirm();
  const keys = useQuery({
    queryKey: ['api-keys'],
    queryFn: () => call(api.GET('/id/api/api-keys', { params: { query: { limit: 100 } } })),
  });
  const create = useMutation({
    mutationFn: () => call(api.POST('/id/api/jwt-tokens/create-api-key', { body: { name: name.trim() } })),
    onSuccess: (created) => {
      setSecret(created.last_token);
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => call(api.DELETE('/id/api/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      notifications.show({ message: 'API key revoked: it stops working at once.' });
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  const nameError =
    create.error instanceof ApiError
      ? (create.error.fields.name?.join(' ') ?? create.error.message)
      : undefined;
  const rows = keys.data?.data ?? [];
  return (
    <Stack>
      <Text>
        API keys let scripts and integrations use the API as you (<code>Authorization: Bearer …</code>). They
        work in every team you belong to.
      </Text>
      <form onSubmit={submit}>
        <Group align="flex-start">
          <TextInput
            label="New key name"
            placeholder="e.g. Zapier"
            required
            value={name}
            error={nameError}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Button type="submit" mt={25} loading={create.isPending}>
            Create API key
          </Button>
        </Group>
      </form>
      {rows.length === 0 && keys.isSuccess ? (
        <Text>No API keys yet. Create one above to connect a script or an integration.</Text>
      ) : (
        <Table aria-label="API keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Starts with</Table.Th>
              <Table.Th>Created</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <span className="lf-visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td>{key.name}</Table.Td>
                <Table.Td>
                  <code>{key.key_prefix}…</code>
                </Table.Td>
                <Table.Td>{when(key.created_at)}</Table.Td>
                <Table.Td>{when(key.last_used_at)}</Table.Td>
                <Table.Td>
                  {key.revoked_at ? <Badge color="gray">revoked</Badge> : <Badge color="green">active</Badge>}
                </Table.Td>
                <Table.Td>
                  {!key.revoked_at && (
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Revoke ${key.name}`}
                      onClick={() =>
                        confirm(
                          `Revoke the key “${key.name}”? Anything using it stops working.`,
                          'Revoke',
                          () => revoke.mutate(key.id),
                        )
                      }
                    >
                      Revoke
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {dialog}
      <ShownOnce
        title="Your new API key"
        value={secret}
        note="Copy the key now and keep it somewhere safe: it is shown only this once."
        onClose={() => setSecret(undefined)}
      />
    </Stack>
  );
}
