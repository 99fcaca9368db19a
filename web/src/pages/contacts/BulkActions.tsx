// Every mass action of the API on the selected contacts or on all that match the filters: each asks what
// it needs (tags, list, stage, field, flow) and states how many contacts it changes before it runs.
import { MultiSelect, Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api';
import {
  BulkActions as Bulk,
  type BulkFieldKit,
  BulkStageField,
  BulkTagsField,
  type RecordSelection,
} from '../../ui/BulkActions';
import type { MassResult } from '../../ui/bulk';
import { useLists } from '../../ui/useCatalogs';
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
type Answer = MassResult & { export?: { uuid: string } | null };

export function BulkActions(props: { selection: RecordSelection; count: number; onDone: () => void }) {
  return (
    <Bulk<ActionType, Answer>
      noun={{ one: 'contact', many: 'contacts' }}
      actions={ACTIONS}
      count={props.count}
      invalidates={['contacts']}
      onDone={props.onDone}
      send={(type, values) =>
        call(
          api.PUT('/leads/api/leads/mass-action', {
            body: { type, payload: payloadOf(type, values), filter: props.selection } as never,
          }),
        ) as Promise<Answer>
      }
      onAnswer={async (result) => {
        if (!result.export) return false;
        await followExport(result.export.uuid);
        return true;
      }}
      fields={(type, kit) => <ContactFields type={type} kit={kit} />}
    />
  );
}

function ContactFields({ type, kit }: { type: ActionType; kit: BulkFieldKit }) {
  const lists = useLists(type === 'contact_change_list');
  const fields = useCustomFields('lead', type === 'contact_change_custom_field');
  const flows = useQuery({
    queryKey: ['flows', 'names'],
    queryFn: () => call(api.GET('/flows/api/flows', { params: { query: { limit: 1000 } } })),
    enabled: type === 'contact_add_to_flow' || type === 'contact_cancel_from_flows',
  });
  const { values, set, error } = kit;
  return (
    <>
      {type.endsWith('_tags') && <BulkTagsField kit={kit} noun="contact" />}
      {type === 'contact_change_list' && (
        <Select
          label="List"
          data={lists.lists.map((l) => ({ value: l.uuid, label: l.name }))}
          value={(values.list as string) ?? null}
          onChange={set('list')}
          error={error('list_uuid')}
          searchable
        />
      )}
      {type === 'contact_change_pipeline_stage' && <BulkStageField kit={kit} object="lead" />}
      {type === 'contact_change_custom_field' && (
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
      {(type === 'contact_add_to_flow' || type === 'contact_cancel_from_flows') && (
        <MultiSelect
          label={type === 'contact_add_to_flow' ? 'Flow' : 'Flows (none chosen: every flow)'}
          data={(flows.data?.data ?? [])
            .filter((f) => f.status !== 'archived')
            .map((f) => ({ value: f.uuid, label: f.name }))}
          value={(values.flows as string[]) ?? []}
          onChange={set('flows')}
          maxValues={type === 'contact_add_to_flow' ? 1 : undefined}
          error={error('flow_uuid') ?? error('flow_uuids')}
          searchable
        />
      )}
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
