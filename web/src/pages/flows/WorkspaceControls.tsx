// Folders (flow workspaces): create one, rename or delete the selected one (its flows stay, in no folder).
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, messageOf } from '../../api';
import { useConfirm } from '../../ui/confirm';

export function WorkspaceControls(props: { selected: string | null; onSelect: (uuid: string) => void }) {
  const queryClient = useQueryClient();
  const { dialog, confirm } = useConfirm();
  const [editing, setEditing] = useState<{ uuid: string | null; name: string } | null>(null);
  const done = () => void queryClient.invalidateQueries({ queryKey: ['flow-workspaces'] });
  const save = useMutation({
    mutationFn: async (value: { uuid: string | null; name: string }) =>
      value.uuid
        ? call(
            api.PUT('/flows/api/flow-workspaces/{uuid}', {
              params: { path: { uuid: value.uuid } },
              body: { name: value.name },
            }),
          )
        : call(api.POST('/flows/api/flow-workspaces', { body: { name: value.name } })),
    onSuccess: (workspace) => {
      done();
      setEditing(null);
      props.onSelect(workspace.uuid);
    },
  });
  const remove = useMutation({
    mutationFn: (uuid: string) =>
      call(api.DELETE('/flows/api/flow-workspaces/{uuid}', { params: { path: { uuid } } })),
    onSuccess: () => {
      done();
      void queryClient.invalidateQueries({ queryKey: ['flows'] });
      props.onSelect('all');
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (editing) save.mutate({ uuid: editing.uuid, name: editing.name.trim() });
  }

  return (
    <Group gap="xs">
      {dialog}
      <Button variant="default" onClick={() => setEditing({ uuid: null, name: '' })}>
        New folder
      </Button>
      {props.selected && (
        <>
          <Button
            variant="subtle"
            onClick={() => {
              const cached = queryClient.getQueryData<{ data: { uuid: string; name: string }[] }>([
                'flow-workspaces',
              ]);
              const current = cached?.data.find((w) => w.uuid === props.selected);
              setEditing({ uuid: props.selected, name: current?.name ?? '' });
            }}
          >
            Rename folder
          </Button>
          <Button
            variant="subtle"
            color="red"
            onClick={() =>
              confirm('Delete this folder? Its flows stay, in no folder.', 'Delete folder', () =>
                remove.mutate(props.selected as string),
              )
            }
          >
            Delete folder
          </Button>
        </>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.uuid ? 'Rename folder' : 'New folder'}
      >
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label="Folder name"
              required
              data-autofocus
              value={editing?.name ?? ''}
              error={save.error ? messageOf(save.error) : undefined}
              onChange={(e) => {
                const name = e.currentTarget.value;
                setEditing((v) => (v ? { ...v, name } : v));
              }}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Group>
  );
}
