// Members of the current team and their roles; owners invite (the link is shown once) and remove members.
import { Badge, Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call, messageOf } from '../../api';
import { useSession } from '../../session';
import { useConfirm } from '../../ui/confirm';
import { when } from '../../ui/format';
import { ShownOnce } from '../../ui/ShownOnce';

export function MembersPage() {
  const { team, isOwner, user } = useSession();
  const id = team?.id ?? 0;
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'member' | 'owner'>('member');
  const [link, setLink] = useState<string>();
  const path = { params: { path: { id } } };
  const members = useQuery({
    queryKey: ['members', id],
    queryFn: () => call(api.GET('/id/api/teams/{id}/members', path)),
  });
  const invites = useQuery({
    queryKey: ['invites', id],
    queryFn: () => call(api.GET('/id/api/teams/{id}/invites', path)),
    enabled: isOwner,
  });
  const refresh = () =>
    void queryClient.invalidateQueries({
      predicate: (q) => ['members', 'invites'].includes(String(q.queryKey[0])),
    });
  const failed = (error: unknown) => notifications.show({ color: 'red', message: messageOf(error) });
  const invite = useMutation({
    mutationFn: () =>
      call(api.POST('/id/api/teams/{id}/invites', { ...path, body: { email: email.trim(), role } })),
    onSuccess: (created) => {
      setLink(created.invite_url);
      setEmail('');
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (uuid: string) =>
      call(api.DELETE('/id/api/teams/{id}/invites/{uuid}', { params: { path: { id, uuid } } })),
    onSuccess: refresh,
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (userId: number) =>
      call(api.DELETE('/id/api/teams/{id}/members/{user_id}', { params: { path: { id, user_id: userId } } })),
    onSuccess: refresh,
    onError: failed,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    invite.mutate();
  }

  return (
    <Stack>
      <Table aria-label="Members">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Member</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Joined</Table.Th>
            <Table.Th>
              <span className="lf-visually-hidden">Actions</span>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(members.data?.data ?? []).map((m) => {
            const name = [m.first_name, m.last_name].filter(Boolean).join(' ');
            return (
              <Table.Tr key={m.user_id}>
                <Table.Td>
                  {name ? `${name} (${m.email})` : m.email}
                  {m.user_id === user.id && ' — you'}
                </Table.Td>
                <Table.Td>
                  <Badge color={m.role === 'owner' ? 'blue' : 'gray'}>{m.role}</Badge>
                </Table.Td>
                <Table.Td>{when(m.created_at)}</Table.Td>
                <Table.Td>
                  {isOwner && m.user_id !== user.id && (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() =>
                        confirm(`Remove ${m.email} from ${team?.name}?`, 'Remove', () =>
                          remove.mutate(m.user_id),
                        )
                      }
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
      {isOwner && (
        <>
          <Title order={2} size="h4">
            Invite someone
          </Title>
          <form onSubmit={submit}>
            <Group align="flex-start">
              <TextInput
                label="E-mail"
                type="email"
                required
                value={email}
                error={
                  invite.error instanceof ApiError
                    ? (invite.error.fields.email?.join(' ') ?? invite.error.message)
                    : undefined
                }
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <Select
                label="Role"
                data={[
                  { value: 'member', label: 'Member' },
                  { value: 'owner', label: 'Owner' },
                ]}
                value={role}
                allowDeselect={false}
                onChange={(value) => setRole(value === 'owner' ? 'owner' : 'member')}
              />
              <Button type="submit" mt={25} loading={invite.isPending}>
                Create invite link
              </Button>
            </Group>
          </form>
          {(invites.data?.data ?? []).length > 0 && (
            <Table aria-label="Pending invites">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Invited</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>
                    <span className="lf-visually-hidden">Actions</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(invites.data?.data ?? []).map((i) => (
                  <Table.Tr key={i.uuid}>
                    <Table.Td>{i.email}</Table.Td>
                    <Table.Td>{i.role}</Table.Td>
                    <Table.Td>{when(i.expires_at)}</Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="default" onClick={() => revoke.mutate(i.uuid)}>
                        Revoke invite
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
      {!isOwner && <Text>Only owners invite and remove members.</Text>}
      {dialog}
      <ShownOnce
        title="Invite link"
        value={link}
        note="Send this link to the person you invite (it works once, for 14 days). It is shown only this once."
        onClose={() => setLink(undefined)}
      />
    </Stack>
  );
}
