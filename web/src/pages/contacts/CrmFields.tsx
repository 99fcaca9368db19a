// What contacts and companies share: tags (names; new ones are created), pipeline stage and custom
// fields - each saved as soon as it changes, the API's refusal shown under the field.
import { Select, Stack, TagsInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import { EditableField } from '../../ui/EditableField';
import { fieldMessage } from '../../ui/field-error';
import { useStages, useTags } from '../../ui/useCatalogs';

export type CrmSave = (body: Record<string, unknown>) => Promise<unknown>;

export function useCustomFields(object: 'lead' | 'company', enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['custom-fields', object],
    queryFn: () =>
      call(
        api.GET('/leads/api/custom-fields', {
          params: { query: { limit: 1000, order_field: 'order', order_type: 'asc', filter: { object } } },
        }),
      ),
    staleTime: 60_000,
  });
}

export function CrmFields(props: {
  object: 'lead' | 'company';
  tags: string[];
  stageUuid: string | null;
  customFields: Record<string, unknown>;
  onSave: CrmSave;
}) {
  const tags = useTags();
  const stages = useStages();
  const fields = useCustomFields(props.object);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const save = async (field: string, body: Record<string, unknown>) => {
    try {
      await props.onSave(body);
      setErrors((e) => ({ ...e, [field]: undefined }));
    } catch (error) {
      setErrors((e) => ({ ...e, [field]: fieldMessage(error, field) ?? messageOf(error) }));
    }
  };
  const tagNames = props.tags.map((uuid) => tags.byUuid.get(uuid)?.name ?? uuid);
  const stageChoices = stages.stages.filter((s) => s.object === props.object);

  return (
    <Stack gap="sm">
      <Select
        label="Pipeline stage"
        data={stageChoices.map((s) => ({ value: s.uuid, label: s.name }))}
        value={props.stageUuid}
        onChange={(value) => value && void save('pipeline_stage_uuid', { pipeline_stage_uuid: value })}
        error={errors.pipeline_stage_uuid}
        allowDeselect={false}
      />
      <TagsInput
        label="Tags"
        description="Type a tag and press Enter; a new name creates the tag"
        data={tags.tags.map((t) => t.name)}
        value={tagNames}
        onChange={(names) => void save('tags', { tags: names })}
        error={errors.tags}
        clearable
      />
      {(fields.data?.data ?? []).map((f) => (
        <EditableField
          key={f.uuid}
          label={f.name}
          field={f.name}
          placeholder={f.type === 'date' ? 'yyyy-mm-dd' : f.type === 'boolean' ? 'true or false' : '—'}
          value={
            props.customFields[f.name] === undefined || props.customFields[f.name] === null
              ? ''
              : String(props.customFields[f.name])
          }
          onSave={(value) => props.onSave({ custom_fields: { [f.name]: value } })}
        />
      ))}
    </Stack>
  );
}
