// Saved views of a table (contacts, companies, tasks): its filters, sort and visible columns under a name,
// kept on the server per user and team (/id/api/saved-views). Pick one to open it; save the table as a new
// view, update the picked one with the table as it is, rename or delete it.

import type { paths } from '@leadflow/sdk';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, messageOf } from '../api';
import { useConfirm } from './confirm';
import { fieldMessage } from './field-error';
import type { Sort } from './VirtualTable';

export type SavedView =
  paths['/id/api/saved-views/{uuid}']['get']['responses']['200']['content']['application/json'];
export type ViewPage = SavedView['page'];
/** What a view holds: the page's filter state (its own shape), the sort and the visible columns. */
export type ViewContent = { filter: Record<string, unknown>; sort: Sort | null; columns: string[] };

type Visibility = Record<string, boolean>;
/** A table's visible columns (in order) from its visibility map (columns are visible unless false). */
export const visibleColumns = (ids: string[], visibility: Visibility) =>
  ids.filter((id) => visibility[id] !== false);
/** The visibility map of a view's columns (an empty list keeps the table's own). */
export const visibilityOf = (ids: string[], columns: string[], fallback: Visibility): Visibility =>
  columns.length === 0 ? fallback : Object.fromEntries(ids.map((id) => [id, columns.includes(id)]));

export const savedViewsKey = (page: ViewPage) => ['saved-views', page] as const;

export function useSavedViews(page: ViewPage, enabled = true) {
  return useQuery({
    enabled,
    queryKey: savedViewsKey(page),
    queryFn: async () =>
      (
        await call(
          api.GET('/id/api/saved-views', {
            params: {
              query: {
                limit: 1000,
                order_field: 'name',
                order_type: 'asc',
                filter: JSON.stringify({ page }) as never,
              },
            },
          }),
        )
      ).data,
  });
}

type Naming = { mode: 'create' } | { mode: 'rename'; view: SavedView };

export function SavedViews(props: {
  page: ViewPage;
  /** The page's name in words ("contacts"), for labels. */
  noun: string;
  current: ViewContent;
  onOpen: (view: SavedView) => void;
  /** False defers reading the views (a table's first rows first); true unless given. */
  enabled?: boolean;
}) {
  const queryClient = useQueryClient();
  const views = useSavedViews(props.page, props.enabled ?? true);
  const [picked, setPicked] = useState<string | null>(null);
  const [naming, setNaming] = useState<Naming>();
  const [name, setName] = useState('');
  const [blank, setBlank] = useState(false);
  const { confirm, dialog } = useConfirm();
  const pickedView = views.data?.find((v) => v.uuid === picked);
  const refresh = () => queryClient.invalidateQueries({ queryKey: savedViewsKey(props.page) });

  const save = useMutation({
    mutationFn: async (input: { naming: Naming; name: string }) =>
      input.naming.mode === 'create'
        ? call(
            api.POST('/id/api/saved-views', {
              body: { page: props.page, name: input.name, ...props.current },
            }),
          )
        : call(
            api.PUT('/id/api/saved-views/{uuid}', {
              params: { path: { uuid: input.naming.view.uuid } },
              body: { name: input.name },
            }),
          ),
    onSuccess: async (view) => {
      await refresh();
      setPicked(view.uuid);
      setNaming(undefined);
      notifications.show({ color: 'green', message: `View “${view.name}” saved.` });
    },
  });
  const update = useMutation({
    mutationFn: (view: SavedView) =>
      call(
        api.PUT('/id/api/saved-views/{uuid}', { params: { path: { uuid: view.uuid } }, body: props.current }),
      ),
    onSuccess: async (view) => {
      await refresh();
      notifications.show({ color: 'green', message: `View “${view.name}” now holds the table as it is.` });
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const remove = useMutation({
    mutationFn: (view: SavedView) =>
      call(api.DELETE('/id/api/saved-views/{uuid}', { params: { path: { uuid: view.uuid } } })),
    onSuccess: async () => {
      setPicked(null);
      await refresh();
    },
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });

  function startNaming(next: Naming) {
    save.reset();
    setBlank(false);
    setName(next.mode === 'rename' ? next.view.name : '');
    setNaming(next);
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    setBlank(!name.trim());
    if (naming && name.trim()) save.mutate({ naming, name });
  }
  const nameError = blank ? 'Give the view a name.' : fieldMessage(save.error, 'name');
  const otherError = save.error && !fieldMessage(save.error, 'name') ? messageOf(save.error) : undefined;

  return (
    <Group gap="xs" align="end" wrap="wrap">
      <Select
        label={`Saved view of ${props.noun}`}
        placeholder={views.data?.length === 0 ? 'None saved yet' : 'Pick a view'}
        w={200}
        data={(views.data ?? []).map((v) => ({ value: v.uuid, label: v.name }))}
        value={picked}
        allowDeselect={false}
        onChange={setPicked}
        onOptionSubmit={(uuid) => {
          // Every pick opens the view, also the one picked already (the table may have changed since).
          const view = views.data?.find((v) => v.uuid === uuid);
          if (view) props.onOpen(view);
        }}
        error={views.isError ? messageOf(views.error) : undefined}
      />
      <Button variant="default" onClick={() => startNaming({ mode: 'create' })}>
        Save as new view
      </Button>
      {pickedView && (
        <>
          <Button variant="default" loading={update.isPending} onClick={() => update.mutate(pickedView)}>
            Update view {pickedView.name}
          </Button>
          <Button variant="default" onClick={() => startNaming({ mode: 'rename', view: pickedView })}>
            Rename view {pickedView.name}
          </Button>
          <Button
            variant="subtle"
            color="red"
            onClick={() =>
              confirm(`Delete the view “${pickedView.name}”? The table stays as it is.`, 'Delete view', () =>
                remove.mutate(pickedView),
              )
            }
          >
            Delete view {pickedView.name}
          </Button>
        </>
      )}
      <Modal
        opened={naming !== undefined}
        onClose={() => setNaming(undefined)}
        title={naming?.mode === 'rename' ? `Rename the view ${naming.view.name}` : 'Save the table as a view'}
      >
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label="View name"
              description={
                naming?.mode === 'rename'
                  ? undefined
                  : 'The filters, sort and visible columns of the table, kept for you in this team.'
              }
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={nameError}
              data-autofocus
            />
            {otherError && (
              <div role="alert" style={{ color: 'var(--mantine-color-red-text)' }}>
                {otherError}
              </div>
            )}
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                {naming?.mode === 'rename' ? 'Rename' : 'Save view'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      {dialog}
    </Group>
  );
}
