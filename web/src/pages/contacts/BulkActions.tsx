// Every mass action of the API on the selected contacts or on all that match the filters: each asks what
// it needs (tags, list, stage, field, flow) and states how many contacts it changes before it runs.
import {
  Alert,
  Button,
  Group,
  Menu,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api';
import { followMassResult } from '../../ui/bulk';
import { fieldMessage } from '../../ui/field-error';
import { useLists, useStages, useTags } from '../../ui/useCatalogs';
import { useCustomFields } from './CrmFields';
import { followExport } from './export-file';

const ACTIONS = [
  { type: 'contact_add_tags', label: 'Add tags' },
  { type: 'contact_remove_tags', label: 'Remove tags' },
  { type: 'contact_replace_tags', label: 'Replace tags' },
  { type: 'contact_change_list', label: 'Move to list' },
  { type: 'contact_change_pipeline_stage', label: 'Change stage' },
  { type: 'contact_change_custom_field', label: 'Set a custom field' },
  { type: 'contact_add_to_flow', label: 'Add to flow' },
  { type: 'contact_cancel_from_flows', label: 'Remove from flows' },
  { type: 'contact_mark_read', label: 'Mark read' },
  { type: 'contact_export_csv', label: 'Export CSV' },
  { type: 'contact_delete', label: 'Delete' },
] as const;
type ActionType = (typeof ACTIONS)[number]['type'];

export type ContactSelection = { ids: string[] } | { all: true } | Record<string, unknown>;

export function BulkActions(props: { selection: ContactSelection; count: number; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [action, setAction] = useState<(typeof ACTIONS)[number]>();
  const [values, setValues] = useState<Record<string, unknown>>({});
  // Read when an action is chosen, not with the table's first rows.
  const chosen = action !== undefined;
  const tags = useTags(chosen);
  const lists = useLists(chosen);
  const stages = useStages(chosen);
  const fields = useCustomFields('lead', chosen);
  const flows = useQuery({
    queryKey: ['flows', 'names'],
    queryFn: () => call(api.GET('/flows/api/flows', { params: { query: { limit: 1000 } } })),
    enabled: chosen,
  });
  const run = useMutation({
    mutationFn: (type: ActionType) =>
      call(
        api.PUT('/leads/api/leads/mass-action', {
          body: { type, payload: payloadOf(type, values), filter: props.selection } as never,
        }),
      ),
    onSuccess: async (result, type) => {
      const label = ACTIONS.find((a) => a.type === type)?.label ?? type;
      setAction(undefined);
      const exportJob = (result as { export?: { uuid: string } | null }).export;
      if (exportJob) {
        await followExport(exportJob.uuid);
        return;
      }
      await followMassResult(result, label, () => {
        void queryClient.invalidateQueries({ queryKey: ['contacts'] });
        props.onDone();
      });
    },
  });
  const n = props.count;
  const noun = `${n} ${n === 1 ? 'contact' : 'contacts'}`;
  const error = (field: string) => fieldMessage(run.error, field);
  const set = (key: string) => (value: unknown) => setValues((v) => ({ ...v, [key]: value }));

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
          {ACTIONS.map((a) => (
            <Menu.Item
              key={a.type}
              color={a.type === 'contact_delete' ? 'red' : undefined}
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
            {action?.type.endsWith('_tags') && (
              <MultiSelect
                label="Tags"
                data={tags.tags.map((t) => ({ value: t.uuid, label: t.name }))}
                value={(values.tags as string[]) ?? []}
                onChange={set('tags')}
                error={error('tag_uuids')}
                searchable
                placeholder={tags.tags.length ? 'Choose tags' : 'No tags yet: add one on a contact first'}
              />
            )}
            {action?.type === 'contact_change_list' && (
              <Select
                label="List"
                data={lists.lists.map((l) => ({ value: l.uuid, label: l.name }))}
                value={(values.list as string) ?? null}
                onChange={set('list')}
                error={error('list_uuid')}
                searchable
              />
            )}
            {action?.type === 'contact_change_pipeline_stage' && (
              <Select
                label="Pipeline stage"
                data={stages.stages
                  .filter((s) => s.object === 'lead')
                  .map((s) => ({ value: s.uuid, label: s.name }))}
                value={(values.stage as string) ?? null}
                onChange={set('stage')}
                error={error('pipeline_stage_uuid')}
              />
            )}
            {action?.type === 'contact_change_custom_field' && (
              <>
                <Select
                  label="Custom field"
                  data={(fields.data?.data ?? []).map((f) => ({ value: f.uuid, label: f.name }))}
                  value={(values.field as string) ?? null}
                  onChange={set('field')}
                  error={error('custom_field_uuid')}
                />
                <TextInput
                  label="Value"
                  description="Leave empty to clear the field"
                  value={(values.value as string) ?? ''}
                  onChange={(e) => set('value')(e.currentTarget.value)}
                  error={error('value')}
                />
              </>
            )}
            {(action?.type === 'contact_add_to_flow' || action?.type === 'contact_cancel_from_flows') && (
              <MultiSelect
                label={action.type === 'contact_add_to_flow' ? 'Flow' : 'Flows (none chosen: every flow)'}
                data={(flows.data?.data ?? [])
                  .filter((f) => f.status !== 'archived')
                  .map((f) => ({ value: f.uuid, label: f.name }))}
                value={(values.flows as string[]) ?? []}
                onChange={set('flows')}
                maxValues={action.type === 'contact_add_to_flow' ? 1 : undefined}
                error={error('flow_uuid') ?? error('flow_uuids')}
                searchable
              />
            )}
            <Text>
              {action?.type === 'contact_delete'
                ? `Delete ${noun}? This cannot be undone.`
                : `${action?.label} on ${noun}.`}{' '}
              Blacklisted contacts are skipped.
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
              <Button
                type="submit"
                color={action?.type === 'contact_delete' ? 'red' : undefined}
                loading={run.isPending}
              >
                {action?.type === 'contact_delete' ? `Delete ${noun}` : `Apply to ${noun}`}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

function payloadOf(type: ActionType, v: Record<string, unknown>): Record<string, unknown> | undefined {
  switch (type) {
    case 'contact_add_tags':
    case 'contact_remove_tags':
    case 'contact_replace_tags':
      return { tag_uuids: v.tags ?? [] };
    case 'contact_change_list':
      return { list_uuid: v.list };
    case 'contact_change_pipeline_stage':
      return { pipeline_stage_uuid: v.stage };
    case 'contact_change_custom_field':
      return { custom_field_uuid: v.field, value: v.value === '' || v.value === undefined ? null : v.value };
    case 'contact_add_to_flow':
      return { flow_uuid: (v.flows as string[] | undefined)?.[0] };
    case 'contact_cancel_from_flows': {
      const chosen = (v.flows as string[] | undefined) ?? [];
      return chosen.length ? { flow_uuids: chosen } : {};
    }
    default:
      return undefined;
  }
}
