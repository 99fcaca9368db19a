// A sender profile's settings: names, who works it, its week (schedule grid), daily limits, the warm-up
// ramp and the pause between actions. Create or update; the API's refusals show next to their fields.
import {
  Alert,
  Button,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api';
import { useSession } from '../../session';
import { fieldMessage } from '../../ui/field-error';
import { ScheduleEditor, type WeekSchedule } from '../../ui/ScheduleEditor';
import type { Sender } from '../../ui/useSenders';

export const ACTION_LABEL: Record<string, string> = {
  linkedin_send_connection_request: 'Connection requests',
  linkedin_send_message: 'LinkedIn messages',
  linkedin_send_inmail: 'InMails',
  linkedin_visit_profile: 'Profile visits',
  linkedin_like_latest_post: 'Post likes',
  linkedin_endorse_skills: 'Skill endorsements',
  linkedin_withdraw_connection_request: 'Withdrawn requests',
  email_send_message: 'E-mails',
};

const DEFAULT_SCHEDULE: WeekSchedule = {
  timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  use_lead_timezone: false,
  timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1080 })),
};

export function SenderForm(props: { sender?: Sender; onDone: () => void }) {
  const queryClient = useQueryClient();
  const s = props.sender;
  const [values, setValues] = useState({
    first_name: s?.first_name ?? '',
    last_name: s?.last_name ?? '',
    label: s?.label ?? '',
    assignee_user_id: s?.assignee_user_id ? String(s.assignee_user_id) : null,
    smart_limits_enabled: s?.smart_limits_enabled ?? false,
    action_interval_seconds: s?.action_interval_seconds ?? null,
  });
  const [schedule, setSchedule] = useState<WeekSchedule>(
    (s?.schedule as WeekSchedule | undefined) ?? DEFAULT_SCHEDULE,
  );
  const [limits, setLimits] = useState<Record<string, number | null>>({ ...(s?.limits ?? {}) });
  const session = useSession();
  const teamId = session.team?.id ?? 0;
  const members = useQuery({
    queryKey: ['members', teamId],
    queryFn: () => call(api.GET('/id/api/teams/{id}/members', { params: { path: { id: teamId } } })),
  });
  const save = useMutation({
    mutationFn: () => {
      const body = {
        first_name: values.first_name,
        last_name: values.last_name || null,
        label: values.label || null,
        ...(values.assignee_user_id ? { assignee_user_id: Number(values.assignee_user_id) } : {}),
        smart_limits_enabled: values.smart_limits_enabled,
        action_interval_seconds: values.action_interval_seconds,
        schedule,
        limits,
      };
      return s
        ? call(
            api.PUT('/flows/api/sender-profiles/{uuid}', {
              params: { path: { uuid: s.uuid } },
              body: body as never,
            }),
          )
        : call(api.POST('/flows/api/sender-profiles', { body: body as never }));
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['sender-profiles'] });
      props.onDone();
    },
  });
  const err = (field: string) => fieldMessage(save.error, field);
  const set = (key: keyof typeof values) => (value: unknown) => setValues((v) => ({ ...v, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate();
  }

  return (
    <form onSubmit={submit}>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label="First name"
            required
            value={values.first_name}
            onChange={(e) => set('first_name')(e.currentTarget.value)}
            error={err('first_name')}
          />
          <TextInput
            label="Last name"
            value={values.last_name}
            onChange={(e) => set('last_name')(e.currentTarget.value)}
            error={err('last_name')}
          />
          <TextInput
            label="Label"
            placeholder="e.g. Sales - EU"
            value={values.label}
            onChange={(e) => set('label')(e.currentTarget.value)}
            error={err('label')}
          />
        </SimpleGrid>
        <Select
          label="Works its tasks"
          placeholder="You"
          data={(members.data?.data ?? []).map((m) => ({
            value: String(m.user_id),
            label: [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email,
          }))}
          value={values.assignee_user_id}
          onChange={set('assignee_user_id')}
          error={err('assignee_user_id')}
        />
        <Title order={3} size="h5">
          Week
        </Title>
        <ScheduleEditor value={schedule} onChange={setSchedule} />
        {err('schedule') && (
          <Text c="red.9" size="sm">
            {err('schedule')}
          </Text>
        )}
        <Title order={3} size="h5">
          Daily limits
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {Object.keys(ACTION_LABEL).map((type) => (
            <NumberInput
              key={type}
              label={ACTION_LABEL[type]}
              min={0}
              value={limits[type] ?? ''}
              onChange={(v) => setLimits((l) => ({ ...l, [type]: v === '' ? null : Number(v) }))}
              error={err(type)}
            />
          ))}
        </SimpleGrid>
        <Group>
          <Switch
            label="Warm-up: ramp limits up over the first three weeks"
            checked={values.smart_limits_enabled}
            onChange={(e) => set('smart_limits_enabled')(e.currentTarget.checked)}
          />
          <NumberInput
            label="Seconds between actions"
            description="Empty: 60–180 s at random"
            min={10}
            w={220}
            value={values.action_interval_seconds ?? ''}
            onChange={(v) => set('action_interval_seconds')(v === '' ? null : Number(v))}
            error={err('action_interval_seconds')}
          />
        </Group>
        {save.error && !Object.keys((save.error as { fields?: object }).fields ?? {}).length && (
          <Alert color="red" role="alert">
            {save.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {s ? 'Save sender profile' : 'Create sender profile'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
