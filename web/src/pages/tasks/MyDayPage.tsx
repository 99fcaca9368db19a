// "My day": the to-dos due today for my sender profiles (or the whole team's), grouped by profile and
// ordered as the API's schedule orders them, with complete / skip / fail from the row or the keyboard
// (j/k or arrows to move, c complete, s skip, f fail).
import {
  Alert,
  Badge,
  Button,
  Group,
  Kbd,
  Modal,
  Paper,
  Stack,
  Switch,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import { useSession } from '../../session';
import { senderName, useSenders } from '../../ui/useSenders';
import { useStoredState } from '../../ui/useStoredState';
import { contactName } from '../contacts/contact';
import { type DayItem, loadDays } from './day';
import { taskText, typeLabel } from './task-meta';

type Move = 'complete' | 'skip' | 'fail';
const DONE_WORD: Record<Move, string> = { complete: 'Done', skip: 'Skipped', fail: 'Marked as failed' };

export function MyDayPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [everyone, setEveryone] = useStoredState('tasks.day.everyone', false);
  const { senders, query: sendersQuery } = useSenders();
  const shown = senders.filter((s) => everyone || s.assignee_user_id === session.user.id);
  const days = useQuery({
    queryKey: ['tasks', 'my-day', shown.map((s) => s.uuid)],
    queryFn: () => loadDays(shown),
    enabled: sendersQuery.isSuccess,
  });
  const items = (days.data ?? []).flatMap((d) => d.items);
  const [current, setCurrent] = useState(0);
  const [failing, setFailing] = useState<DayItem>();
  const [reason, setReason] = useState('');
  const selected = items[Math.min(current, items.length - 1)];

  const move = useMutation({
    mutationFn: async ({ item, to, why }: { item: DayItem; to: Move; why?: string }) => {
      const path = { params: { path: { uuid: item.task.uuid } } };
      if (to === 'complete') await call(api.PUT('/flows/api/tasks/{uuid}/complete', { ...path, body: null }));
      else if (to === 'fail')
        await call(
          api.PUT('/flows/api/tasks/{uuid}/fail', { ...path, body: why ? { error_msg: why } : null }),
        );
      else await call(api.PUT('/flows/api/tasks/mass-skip', { body: { uuids: [item.task.uuid] } }));
      return { item, to };
    },
    onSuccess: ({ item, to }) => {
      notifications.show({ color: 'green', message: `${DONE_WORD[to]}: ${typeLabel(item.task.type)}.` });
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });

  const act = (to: Move) => {
    if (!selected || move.isPending) return;
    if (to === 'fail') {
      setReason('');
      setFailing(selected);
    } else move.mutate({ item: selected, to });
  };
  useHotkeys([
    ['j', () => setCurrent((c) => Math.min(c + 1, items.length - 1))],
    ['ArrowDown', () => setCurrent((c) => Math.min(c + 1, items.length - 1))],
    ['k', () => setCurrent((c) => Math.max(c - 1, 0))],
    ['ArrowUp', () => setCurrent((c) => Math.max(c - 1, 0))],
    ['c', () => act('complete')],
    ['s', () => act('skip')],
    ['f', () => act('fail')],
  ]);

  if (sendersQuery.isSuccess && shown.length === 0) {
    return (
      <Stack>
        <DayHeader everyone={everyone} onEveryone={setEveryone} />
        <Text>
          {everyone
            ? 'Your team has no sender profiles yet. Create one under Senders; its to-dos show here.'
            : 'No sender profile is assigned to you. Show the whole team’s, or assign yourself a profile under Senders.'}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack>
      <DayHeader everyone={everyone} onEveryone={setEveryone} />
      {days.isError && (
        <Alert color="red" role="alert">
          {days.error.message}
        </Alert>
      )}
      {days.isSuccess && items.length === 0 && (
        <Text>Nothing left to do today. New to-dos appear here when a flow or a teammate assigns them.</Text>
      )}
      {(days.data ?? []).map((day) =>
        day.items.length === 0 ? null : (
          <Stack key={day.sender.uuid} gap="xs" component="section" aria-label={senderName(day.sender)}>
            <Group gap="sm">
              <Title order={2} size="h4">
                {senderName(day.sender)}
              </Title>
              <Text size="sm" c="dimmed">
                {day.sender.schedule.timezone} ·{' '}
                {day.windows.length > 0 ? day.windows.join(', ') : 'no window today'} · {day.items.length} to
                do
              </Text>
            </Group>
            <Stack gap="xs" component="ul" aria-label={`To-dos of ${senderName(day.sender)}`} p={0} m={0}>
              {day.items.map((item) => {
                const index = items.indexOf(item);
                return (
                  <TaskRow
                    key={item.task.uuid}
                    item={item}
                    current={index === current}
                    onFocus={() => setCurrent(index)}
                    busy={move.isPending}
                    onMove={(to) => {
                      setCurrent(index);
                      if (to === 'fail') {
                        setReason('');
                        setFailing(item);
                      } else move.mutate({ item, to });
                    }}
                  />
                );
              })}
            </Stack>
          </Stack>
        ),
      )}
      <Modal
        opened={failing !== undefined}
        onClose={() => setFailing(undefined)}
        title="Mark the task as failed"
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (failing) move.mutate({ item: failing, to: 'fail', why: reason.trim() || undefined });
            setFailing(undefined);
          }}
        >
          <Stack>
            <Textarea
              label="Why it failed"
              description="Optional; shown on the task"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setFailing(undefined)}>
                Cancel
              </Button>
              <Button type="submit" color="red">
                Mark as failed
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}

function DayHeader(props: { everyone: boolean; onEveryone: (value: boolean) => void }) {
  return (
    <Group justify="space-between">
      <Text size="sm">
        Keys: <Kbd>j</Kbd>/<Kbd>k</Kbd> move, <Kbd>c</Kbd> complete, <Kbd>s</Kbd> skip, <Kbd>f</Kbd> fail
      </Text>
      <Switch
        label="The whole team’s senders"
        checked={props.everyone}
        onChange={(e) => props.onEveryone(e.currentTarget.checked)}
      />
    </Group>
  );
}

function TaskRow(props: {
  item: DayItem;
  current: boolean;
  busy: boolean;
  onFocus: () => void;
  onMove: (to: Move) => void;
}) {
  const { task, contact, time, overdue } = props.item;
  const text = taskText(task);
  const who = contact ? contactName(contact) : 'a deleted contact';
  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      aria-current={props.current ? 'true' : undefined}
      aria-label={`${typeLabel(task.type)}: ${who}`}
      onClick={props.onFocus}
      style={{
        listStyle: 'none',
        outline: props.current ? '2px solid var(--mantine-primary-color-filled)' : undefined,
      }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Badge color={overdue ? 'red' : 'blue'}>{time}</Badge>
            <Text fw={600}>{typeLabel(task.type)}</Text>
            <Text>{who}</Text>
            {contact?.position && (
              <Text size="sm" c="dimmed">
                {contact.position}
                {contact.company_name ? ` at ${contact.company_name}` : ''}
              </Text>
            )}
          </Group>
          {text && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {text}
            </Text>
          )}
          {task.note && (
            <Text size="sm" c="dimmed">
              Note: {task.note}
            </Text>
          )}
          {contact?.linkedin && (
            <Text size="sm" c="dimmed">
              {contact.linkedin}
            </Text>
          )}
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" onClick={() => props.onMove('complete')} disabled={props.busy}>
            Complete
          </Button>
          <Button size="xs" variant="default" onClick={() => props.onMove('skip')} disabled={props.busy}>
            Skip
          </Button>
          <Button
            size="xs"
            variant="default"
            color="red"
            onClick={() => props.onMove('fail')}
            disabled={props.busy}
          >
            Fail
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
