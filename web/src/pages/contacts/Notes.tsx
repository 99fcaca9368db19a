// Notes on a contact or a company: newest first, shown as text; add one, delete one.
import { ActionIcon, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, messageOf } from '../../api';
import { fieldMessage } from '../../ui/field-error';
import { when } from '../../ui/format';

export function Notes(props: { object: 'lead' | 'company'; uuid: string }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const key = ['notes', props.object, props.uuid];
  const notes = useQuery({
    queryKey: key,
    queryFn: () =>
      call(
        api.GET('/leads/api/notes', {
          params: {
            query: {
              limit: 100,
              order_field: 'created_at',
              order_type: 'desc',
              filter: JSON.stringify({ object: props.object, object_uuid: props.uuid }) as never,
            },
          },
        }),
      ),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: ['activities'] });
  };
  const add = useMutation({
    mutationFn: () =>
      call(
        api.POST('/leads/api/notes', { body: { object: props.object, object_uuid: props.uuid, note: text } }),
      ),
    onSuccess: () => {
      setText('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (uuid: string) => call(api.DELETE('/leads/api/notes/{uuid}', { params: { path: { uuid } } })),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim()) add.mutate();
  }

  return (
    <Stack gap="xs">
      <form onSubmit={submit}>
        <Stack gap="xs">
          <Textarea
            label="New note"
            autosize
            minRows={2}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={add.error ? (fieldMessage(add.error, 'note') ?? add.error.message) : undefined}
          />
          <Button type="submit" size="xs" w="fit-content" loading={add.isPending} disabled={!text.trim()}>
            Add note
          </Button>
        </Stack>
      </form>
      {notes.data?.data.length === 0 && (
        <Text size="sm" c="dimmed">
          No notes yet. Write what you learned so the team knows it too.
        </Text>
      )}
      <Stack gap="xs" component="ul" aria-label="Notes" p={0} m={0}>
        {notes.data?.data.map((n) => (
          <Paper key={n.uuid} component="li" withBorder p="xs" style={{ listStyle: 'none' }}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {n.note}
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete the note of ${when(n.created_at)}`}
                onClick={() => remove.mutate(n.uuid)}
              >
                ×
              </ActionIcon>
            </Group>
            <Text size="xs" c="dimmed">
              {when(n.created_at)}
            </Text>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
