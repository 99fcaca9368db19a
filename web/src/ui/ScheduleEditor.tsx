// A weekly schedule (flows and sender profiles): the time zone, whether each contact's own zone is
// used, and per weekday the time ranges when actions may run - the API's `schedule` object.
import { ActionIcon, Button, Group, Select, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useMemo } from 'react';

export type TimeBlock = { dow: number; min: number; max: number };
export type WeekSchedule = { timezone: string; use_lead_timezone: boolean; timeblocks: TimeBlock[] };

// Monday first, as people read a week; dow is the API's 0 = Sunday.
const DAYS: Array<{ dow: number; name: string }> = [
  { dow: 1, name: 'Monday' },
  { dow: 2, name: 'Tuesday' },
  { dow: 3, name: 'Wednesday' },
  { dow: 4, name: 'Thursday' },
  { dow: 5, name: 'Friday' },
  { dow: 6, name: 'Saturday' },
  { dow: 0, name: 'Sunday' },
];

const toTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const toMinutes = (time: string, end: boolean) => {
  const [h, m] = time.split(':').map(Number);
  const minutes = (h ?? 0) * 60 + (m ?? 0);
  return end && minutes === 0 ? 1440 : minutes;
};

export function ScheduleEditor(props: {
  value: WeekSchedule;
  onChange(value: WeekSchedule): void;
  /** Shows "use each contact's time zone" (flows; sender profiles have none). */
  leadTimezone?: boolean;
  disabled?: boolean;
}) {
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);
  const { value } = props;
  const set = (change: Partial<WeekSchedule>) => props.onChange({ ...value, ...change });
  const setBlocks = (dow: number, blocks: TimeBlock[]) =>
    set({
      timeblocks: [...value.timeblocks.filter((b) => b.dow !== dow), ...blocks].sort(
        (a, b) => a.dow - b.dow || a.min - b.min,
      ),
    });

  return (
    <Stack gap="sm">
      <Select
        label="Time zone"
        searchable
        disabled={props.disabled}
        data={zones.includes(value.timezone) ? zones : [value.timezone, ...zones]}
        value={value.timezone}
        onChange={(zone) => zone && set({ timezone: zone })}
        allowDeselect={false}
      />
      {props.leadTimezone && (
        <Switch
          label="Use each contact's own time zone when it is known"
          disabled={props.disabled}
          checked={value.use_lead_timezone}
          onChange={(e) => set({ use_lead_timezone: e.currentTarget.checked })}
        />
      )}
      <Table aria-label="Weekly schedule" verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Day</Table.Th>
            <Table.Th>Hours</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {DAYS.map(({ dow, name }) => {
            const blocks = value.timeblocks.filter((b) => b.dow === dow);
            return (
              <Table.Tr key={dow}>
                <Table.Td w={100}>
                  <Text size="sm">{name}</Text>
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    {blocks.length === 0 && (
                      <Text size="sm" c="dimmed">
                        Off
                      </Text>
                    )}
                    {blocks.map((block, index) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: a day's blocks have no identity but their place
                      <Group key={`${block.min}-${index}`} gap={4} wrap="nowrap">
                        <TextInput
                          type="time"
                          size="xs"
                          aria-label={`${name} from`}
                          disabled={props.disabled}
                          value={toTime(block.min)}
                          onChange={(e) =>
                            setBlocks(
                              dow,
                              blocks.map((b, i) =>
                                i === index ? { ...b, min: toMinutes(e.currentTarget.value, false) } : b,
                              ),
                            )
                          }
                        />
                        <Text size="xs">to</Text>
                        <TextInput
                          type="time"
                          size="xs"
                          aria-label={`${name} to`}
                          disabled={props.disabled}
                          value={toTime(block.max)}
                          onChange={(e) =>
                            setBlocks(
                              dow,
                              blocks.map((b, i) =>
                                i === index ? { ...b, max: toMinutes(e.currentTarget.value, true) } : b,
                              ),
                            )
                          }
                        />
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${name} hours ${toTime(block.min)}-${toTime(block.max)}`}
                          disabled={props.disabled}
                          onClick={() =>
                            setBlocks(
                              dow,
                              blocks.filter((_, i) => i !== index),
                            )
                          }
                        >
                          ×
                        </ActionIcon>
                      </Group>
                    ))}
                    <Button
                      variant="subtle"
                      size="compact-xs"
                      w="fit-content"
                      disabled={props.disabled}
                      aria-label={`Add hours on ${name}`}
                      onClick={() => setBlocks(dow, [...blocks, { dow, min: 540, max: 1080 }])}
                    >
                      + hours
                    </Button>
                  </Stack>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
