// The row menu of a flow: open it, start / stop / archive / unarchive, clone, delete.
import { ActionIcon, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api, call, messageOf } from '../../api';
import { useConfirm } from '../../ui/confirm';
import type { Flow } from './flow-types';

type Move = 'start' | 'stop' | 'archive' | 'unarchive';

const MOVE_LABEL: Record<Move, string> = {
  start: 'Start',
  stop: 'Stop',
  archive: 'Archive',
  unarchive: 'Unarchive',
};

/** The status moves a flow in this status allows. */
function movesOf(status: Flow['status']): Move[] {
  switch (status) {
    case 'on':
      return ['stop', 'archive'];
    case 'archived':
      return ['unarchive'];
    default:
      return ['start', 'archive'];
  }
}

export function useFlowMove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flow, move }: { flow: Pick<Flow, 'uuid'>; move: Move }) =>
      call(
        api.PUT(`/flows/api/flows/{flowUuid}/${move}`, {
          params: { path: { flowUuid: flow.uuid } },
        }),
      ),
    onSuccess: (flow, { move }) => {
      notifications.show({ color: 'green', message: `${flow.name}: ${MOVE_LABEL[move].toLowerCase()}ed.` });
      void queryClient.invalidateQueries({ queryKey: ['flows'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
}

export function FlowActions({ flow }: { flow: Flow }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { dialog, confirm } = useConfirm();
  const move = useFlowMove();
  const clone = useMutation({
    mutationFn: () =>
      call(
        api.POST('/flows/api/flows/clone', {
          body: {
            flow_uuid: flow.uuid,
            name: `${flow.name} (copy)`.slice(0, 255),
            flow_workspace_uuid: flow.flow_workspace_uuid,
          },
        }),
      ),
    onSuccess: (copy) => {
      notifications.show({ color: 'green', message: `Cloned as ${copy.name}.` });
      void queryClient.invalidateQueries({ queryKey: ['flows'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const remove = useMutation({
    mutationFn: () =>
      call(api.DELETE('/flows/api/flows/{flowUuid}', { params: { path: { flowUuid: flow.uuid } } })),
    onSuccess: () => {
      notifications.show({ color: 'green', message: `${flow.name} deleted.` });
      void queryClient.invalidateQueries({ queryKey: ['flows'] });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });

  return (
    <>
      {dialog}
      <Menu position="bottom-end">
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={`Actions of ${flow.name}`}>
            ⋯
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            onClick={() => void navigate({ to: '/flows/$flowUuid', params: { flowUuid: flow.uuid } })}
          >
            Open builder
          </Menu.Item>
          <Menu.Divider />
          {movesOf(flow.status).map((m) => (
            <Menu.Item
              key={m}
              onClick={() =>
                m === 'archive'
                  ? confirm(
                      `Archiving ${flow.name} stops it and ends every contact still in it (canceled).`,
                      'Archive',
                      () => move.mutate({ flow, move: m }),
                    )
                  : move.mutate({ flow, move: m })
              }
            >
              {MOVE_LABEL[m]}
            </Menu.Item>
          ))}
          <Menu.Item onClick={() => clone.mutate()}>Clone</Menu.Item>
          <Menu.Divider />
          <Menu.Item
            color="red"
            onClick={() =>
              confirm(
                `Delete ${flow.name} and its versions? Contacts still in it end as canceled; their history stays.`,
                'Delete flow',
                () => remove.mutate(),
              )
            }
          >
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
