import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import type { VisibilityState } from '@tanstack/react-table';

/** Which columns a table shows; the choice is the caller's to keep. */
export function ColumnChooser(props: {
  columns: { id: string; label: string }[];
  visibility: VisibilityState;
  onChange: (next: VisibilityState) => void;
}) {
  return (
    <Popover position="bottom-end" shadow="md">
      <Popover.Target>
        <Button variant="default">Columns</Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label="Visible columns">
          {props.columns.map((column) => (
            <Checkbox
              key={column.id}
              label={column.label}
              checked={props.visibility[column.id] !== false}
              onChange={(e) => props.onChange({ ...props.visibility, [column.id]: e.currentTarget.checked })}
            />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
