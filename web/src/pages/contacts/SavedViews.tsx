// Saved views of the contacts table: its filters, columns and sort under a name, per user and team, kept in
// this browser's storage (not on the server: another browser starts without them).
import { Button, Group, Menu, Modal, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useSession } from '../../session';
import { useStoredState } from '../../ui/useStoredState';
import type { Sort } from '../../ui/VirtualTable';
import type { Condition } from './filter-model';

export type ViewState = { conditions: Condition[]; visibility: Record<string, boolean>; sort: Sort };
type View = ViewState & { name: string };

export function SavedViews(props: { current: ViewState; onOpen: (view: ViewState) => void }) {
  const session = useSession();
  const [views, setViews] = useStoredState<View[]>(
    `contacts.views.${session.user.id}.${session.team?.id ?? 0}`,
    [],
  );
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();

  function save(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError('Give the view a name.');
    const view = { ...props.current, name: trimmed };
    setViews([...views.filter((v) => v.name !== trimmed), view].sort((a, b) => a.name.localeCompare(b.name)));
    setNaming(false);
    setName('');
    setError(undefined);
  }

  return (
    <>
      <Menu position="bottom-end" shadow="md">
        <Menu.Target>
          <Button variant="default">Views</Button>
        </Menu.Target>
        <Menu.Dropdown>
          {views.length === 0 && (
            <Menu.Label>No saved view yet: save the filters and columns you use.</Menu.Label>
          )}
          {views.map((v) => (
            <Menu.Item key={v.name} onClick={() => props.onOpen(v)} aria-label={`Open view ${v.name}`}>
              {v.name}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item onClick={() => setNaming(true)}>Save current view…</Menu.Item>
          {views.map((v) => (
            <Menu.Item
              key={`delete-${v.name}`}
              color="red"
              onClick={() => setViews(views.filter((x) => x.name !== v.name))}
            >
              Delete view {v.name}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={naming} onClose={() => setNaming(false)} title="Save the current view">
        <form onSubmit={save}>
          <Stack>
            <TextInput
              label="View name"
              description="The filters, visible columns and sort of the table; a view of the same name is replaced."
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button type="submit">Save view</Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
