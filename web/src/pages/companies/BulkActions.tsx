// Mass actions on the selected companies or on all that match the search: tags added, removed or replaced,
// a pipeline stage, delete; each states how many companies it changes before it runs.
import { api, call } from '../../api';
import {
  BulkActions as Bulk,
  BulkStageField,
  BulkTagsField,
  type RecordSelection,
} from '../../ui/BulkActions';

const ACTIONS = [
  { type: 'company_add_tags', label: 'Add tags' },
  { type: 'company_remove_tags', label: 'Remove tags' },
  { type: 'company_replace_tags', label: 'Replace tags' },
  { type: 'company_change_pipeline_stage', label: 'Change stage' },
  { type: 'company_delete', label: 'Delete' },
] as const;
type ActionType = (typeof ACTIONS)[number]['type'];

export function CompanyBulkActions(props: { selection: RecordSelection; count: number; onDone: () => void }) {
  return (
    <Bulk<ActionType, { affected: number | null; operation: { uuid: string } | null }>
      noun={{ one: 'company', many: 'companies' }}
      actions={ACTIONS}
      count={props.count}
      invalidates={['companies']}
      onDone={props.onDone}
      send={(type, values) =>
        call(
          api.PUT('/leads/api/companies/mass-action', {
            body: { type, payload: payloadOf(type, values), filter: props.selection } as never,
          }),
        )
      }
      fields={(type, kit) =>
        type === 'company_change_pipeline_stage' ? (
          <BulkStageField kit={kit} object="company" />
        ) : (
          type.endsWith('_tags') && <BulkTagsField kit={kit} noun="company" />
        )
      }
    />
  );
}

function payloadOf(type: ActionType, v: Record<string, unknown>): Record<string, unknown> | undefined {
  if (type.endsWith('_tags')) return { tag_uuids: v.tags ?? [] };
  if (type === 'company_change_pipeline_stage') return { pipeline_stage_uuid: v.stage };
  return undefined;
}
