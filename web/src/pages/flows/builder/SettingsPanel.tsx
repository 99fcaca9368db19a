// The flow's own settings in the builder: name, description, priority and the schedule its steps run
// in (or each sender's). Saved with the tree (PUT /flows/api/flows/{uuid}).
import { NumberInput, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { ScheduleEditor } from '../../../ui/ScheduleEditor';
import type { Settings } from './useDraft';

export function SettingsPanel(props: {
  settings: Settings;
  editable: boolean;
  fieldErrors: Record<string, string[]>;
  onChange(settings: Settings, field: string): void;
}) {
  const { settings } = props;
  const set = (change: Partial<Settings>, field: string) => props.onChange({ ...settings, ...change }, field);
  const error = (field: string) =>
    Object.entries(props.fieldErrors)
      .filter(([path]) => path === field || path.startsWith(`${field}.`))
      .flatMap(([, m]) => m)
      .join(' ') || undefined;
  return (
    <Stack gap="sm" role="region" aria-label="Flow settings">
      <Title order={2} size="h4">
        Flow settings
      </Title>
      <TextInput
        label="Name"
        required
        disabled={!props.editable}
        value={settings.name}
        error={error('name')}
        onChange={(e) => set({ name: e.currentTarget.value }, 'name')}
      />
      <Textarea
        label="Description"
        autosize
        minRows={1}
        disabled={!props.editable}
        value={settings.description ?? ''}
        onChange={(e) => set({ description: e.currentTarget.value || null }, 'description')}
      />
      <NumberInput
        label="Priority"
        description="Higher runs first when a sender is busy with several flows"
        min={0}
        max={100}
        disabled={!props.editable}
        value={settings.priority}
        error={error('priority')}
        onChange={(v) => set({ priority: Number(v) || 0 }, 'priority')}
      />
      <Switch
        label="Run steps in each sender's own schedule"
        disabled={!props.editable}
        checked={settings.use_sender_schedule}
        onChange={(e) => set({ use_sender_schedule: e.currentTarget.checked }, 'use_sender_schedule')}
      />
      {settings.use_sender_schedule ? (
        <Text size="sm" c="dimmed">
          Each sender's schedule (Senders) decides when its steps run.
        </Text>
      ) : (
        <ScheduleEditor
          value={settings.schedule}
          leadTimezone
          disabled={!props.editable}
          onChange={(schedule) => set({ schedule }, 'schedule')}
        />
      )}
      {error('schedule') && (
        <Text c="red" size="sm" role="alert">
          {error('schedule')}
        </Text>
      )}
    </Stack>
  );
}
