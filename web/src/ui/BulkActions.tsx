// A mass action menu for a table's selection (picked rows or all that match): each action asks what it
// needs in a dialog that states how many records it changes before it runs, shows the API's errors, and
// follows the result (done in the request or queued). The pages give their actions, fields and request.
import { Alert, Button, Group, Menu, Modal, MultiSelect, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { followMassResult, type MassResult } from './bulk';
import { fieldMessage } from './field-error';
import { useStages, useTags } from './useCatalogs';

export type BulkAction<T extends string> = { readonly type: T; readonly label: string };
/** Which records: picked ids, every record, or the list's filter (all that match). */
export type RecordSelection = { ids: string[] } | { all: true } | Record<string, unknown>;
/** The values of an action's dialog, their setter and the API's message for a payload field. */
export type BulkFieldKit = {
  values: Record<string, unknown>;
  set: (key: string) => (value: unknown) => void;
  error: (field: string) => string | undefined;
};

export function BulkActions<T extends string, R extends MassResult>(props: {
  /** "contact" / "contacts". */
  noun: { one: string; many: string };
  actions: readonly BulkAction<T>[];
  count: number;
  /** Sends the action with the dialog's values for the current selection. */
  send: (type: T, values: Record<string, unknown>) => Promise<R>;
  /** The query keys whose data the action changes. */
  invalidates: readonly unknown[];
  onDone: () => void;
  /** The dialog's fields for an action (rendered only while its dialog is open). */
  fields?: (type: T, kit: BulkFieldKit) => ReactNode;
  /** Handles an answer other than a mass result (an export); true when it did. */
  onAnswer?: (result: R) => Promise<boolean>;
}) {
  const queryClient = useQueryClient();
  const [action, setAction] = useState<BulkAction<T>>();
  const [values, setValues] = useState<Record<string, unknown>>({});
  const run = useMutation({
    mutationFn: (type: T) => props.send(type, values),
    onSuccess: async (result, type) => {
      const label = props.actions.find((a) => a.type === type)?.label ?? type;
      setAction(undefined);
      if (await props.onAnswer?.(result)) return;
      await followMassResult(result, label, () => {
        void queryClient.invalidateQueries({ queryKey: props.invalidates });
        props.onDone();
      });
    },
  });
  const n = props.count;
  const noun = `${n} ${n === 1 ? props.noun.one : props.noun.many}`;
  const kit: BulkFieldKit = {
    values,
    set: (key) => (value) => setValues((v) => ({ ...v, [key]: value })),
    error: (field) => fieldMessage(run.error, field),
  };
  const deleting = action?.type.endsWith('_delete') ?? false;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (action) run.mutate(action.type);
  }

  return (
    <>
      <Menu position="bottom-start">
        <Menu.Target>
          <Button variant="default" disabled={n === 0}>
            Actions on {noun}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {props.actions.map((a) => (
            <Menu.Item
              key={a.type}
              color={a.type.endsWith('_delete') ? 'red' : undefined}
              onClick={() => {
                run.reset();
                setValues({});
                setAction(a);
              }}
            >
              {a.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={action !== undefined} onClose={() => setAction(undefined)} title={action?.label ?? ''}>
        <form onSubmit={submit}>
          <Stack>
            {action && props.fields?.(action.type, kit)}
            <Text>
              {deleting ? `Delete ${noun}? This cannot be undone.` : `${action?.label} on ${noun}.`}{' '}
              Blacklisted {props.noun.many} are skipped.
            </Text>
            {run.error && !Object.keys((run.error as { fields?: object }).fields ?? {}).length && (
              <Alert color="red" role="alert">
                {run.error.message}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAction(undefined)}>
                Cancel
              </Button>
              <Button type="submit" color={deleting ? 'red' : undefined} loading={run.isPending}>
                {deleting ? `Delete ${noun}` : `Apply to ${noun}`}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** The tags of an add/remove/replace tags action (value "tags"; the API's field is tag_uuids). */
export function BulkTagsField(props: { kit: BulkFieldKit; noun: string }) {
  const { tags } = useTags();
  return (
    <MultiSelect
      label="Tags"
      data={tags.map((t) => ({ value: t.uuid, label: t.name }))}
      value={(props.kit.values.tags as string[]) ?? []}
      onChange={props.kit.set('tags')}
      error={props.kit.error('tag_uuids')}
      searchable
      placeholder={tags.length ? 'Choose tags' : `No tags yet: add one on a ${props.noun} first`}
    />
  );
}

/** The target stage of a change stage action (value "stage"; the API's field is pipeline_stage_uuid). */
export function BulkStageField(props: { kit: BulkFieldKit; object: 'lead' | 'company' }) {
  const { stages } = useStages();
  return (
    <Select
      label="Pipeline stage"
      data={stages.filter((s) => s.object === props.object).map((s) => ({ value: s.uuid, label: s.name }))}
      value={(props.kit.values.stage as string) ?? null}
      onChange={props.kit.set('stage')}
      error={props.kit.error('pipeline_stage_uuid')}
    />
  );
}
