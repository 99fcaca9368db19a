// A duration in seconds, entered as days and hours (delays, waits, trigger timeouts).
import { Fieldset, Group, NumberInput, Text } from '@mantine/core';

const DAY = 86_400;

export function DurationInput(props: {
  label: string;
  description?: string;
  value: number;
  onChange(seconds: number): void;
}) {
  const days = Math.floor(props.value / DAY);
  const hours = Math.round((props.value % DAY) / 3600);
  const set = (d: number, h: number) => props.onChange(Math.max(0, d) * DAY + Math.max(0, h) * 3600);
  return (
    <Fieldset
      variant="unstyled"
      legend={props.label}
      styles={{ legend: { fontSize: 'var(--mantine-font-size-sm)', fontWeight: 500 } }}
    >
      {props.description && (
        <Text size="xs" c="dimmed">
          {props.description}
        </Text>
      )}
      <Group gap="xs" mt={4}>
        <NumberInput
          aria-label={`${props.label}: days`}
          w={100}
          min={0}
          max={365}
          suffix=" d"
          value={days}
          onChange={(v) => set(Number(v) || 0, hours)}
        />
        <NumberInput
          aria-label={`${props.label}: hours`}
          w={100}
          min={0}
          max={23}
          suffix=" h"
          value={hours}
          onChange={(v) => set(days, Number(v) || 0)}
        />
      </Group>
    </Fieldset>
  );
}
