// The filter builder over the contacts table: rows of field, operator and value (lists, tags, stages,
// custom fields, free text and more), combined with AND.
import { ActionIcon, Button, Group, MultiSelect, Select, Stack, TextInput } from '@mantine/core';
import { useLists, useStages, useTags } from '../../ui/useCatalogs';
import { useCustomFields } from './CrmFields';
import { type Condition, type FieldDef, needsValue, OPERATORS, STANDARD_FIELDS } from './filter-model';

/** The fields a condition may use; custom fields are read once `enabled` (a filter exists). */
export function useFilterFields(enabled: boolean): FieldDef[] {
  const custom = useCustomFields('lead', enabled);
  return [
    ...STANDARD_FIELDS,
    ...(custom.data?.data ?? []).map((f) => ({
      key: `custom:${f.name}`,
      label: `${f.name} (custom field)`,
      kind: 'custom' as const,
      customType: f.type,
    })),
  ];
}

export function FilterBuilder(props: {
  fields: FieldDef[];
  conditions: Condition[];
  onChange: (next: Condition[]) => void;
}) {
  // Read once a filter exists: the table's first rows do not wait behind them.
  const wanted = props.conditions.length > 0;
  const lists = useLists(wanted);
  const tags = useTags(wanted);
  const stages = useStages(wanted);
  const choices: Record<string, { value: string; label: string }[]> = {
    list: lists.lists.map((l) => ({ value: l.uuid, label: l.name })),
    tags: tags.tags.map((t) => ({ value: t.uuid, label: t.name })),
    stage: stages.stages.filter((s) => s.object === 'lead').map((s) => ({ value: s.uuid, label: s.name })),
  };
  const set = (id: number, patch: Partial<Condition>) =>
    props.onChange(props.conditions.map((c) => (c.id === id ? { ...c, ...patch } : c)));
  const add = () => {
    const id = Math.max(0, ...props.conditions.map((c) => c.id)) + 1;
    props.onChange([...props.conditions, { id, field: 'q', op: 'contains', value: '' }]);
  };

  return (
    <Stack gap="xs" role="group" aria-label="Filters">
      {props.conditions.map((c, index) => {
        const def = props.fields.find((f) => f.key === c.field) ?? props.fields[0]!;
        const n = index + 1;
        const ops = OPERATORS[def.kind];
        const options = choices[def.kind];
        return (
          <Group key={c.id} gap="xs" align="flex-end" wrap="wrap">
            <Select
              aria-label={`Field of filter ${n}`}
              w={220}
              data={props.fields.map((f) => ({ value: f.key, label: f.label }))}
              value={c.field}
              searchable
              allowDeselect={false}
              onChange={(field) => {
                const next = props.fields.find((f) => f.key === field);
                if (next) set(c.id, { field: next.key, op: OPERATORS[next.kind][0]!.value, value: '' });
              }}
            />
            <Select
              aria-label={`Operator of filter ${n}`}
              w={160}
              data={ops}
              value={c.op}
              allowDeselect={false}
              onChange={(op) => op && set(c.id, { op })}
            />
            {needsValue(c.op) &&
              (options ? (
                <MultiSelect
                  aria-label={`Value of filter ${n}`}
                  w={280}
                  data={options}
                  value={Array.isArray(c.value) ? c.value : c.value ? [c.value] : []}
                  onChange={(value) => set(c.id, { value })}
                  searchable
                  placeholder="Choose…"
                />
              ) : (
                <TextInput
                  aria-label={`Value of filter ${n}`}
                  w={220}
                  type={def.kind === 'date' || def.customType === 'date' ? 'date' : 'text'}
                  value={Array.isArray(c.value) ? (c.value[0] ?? '') : c.value}
                  onChange={(e) => set(c.id, { value: e.currentTarget.value })}
                />
              ))}
            <ActionIcon
              variant="subtle"
              size="lg"
              aria-label={`Remove filter ${n}`}
              onClick={() => props.onChange(props.conditions.filter((x) => x.id !== c.id))}
            >
              ×
            </ActionIcon>
          </Group>
        );
      })}
      <Group gap="xs">
        <Button variant="default" size="xs" onClick={add}>
          Add filter
        </Button>
        {props.conditions.length > 0 && (
          <Button variant="subtle" size="xs" onClick={() => props.onChange([])}>
            Clear filters
          </Button>
        )}
      </Group>
    </Stack>
  );
}
