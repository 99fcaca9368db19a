// A contact source in the builder: who enters (contacts added by hand or through the API, or every
// contact of some lists or tags, enrolled by the flow itself while it runs), which senders work them
// and how many may be in the flow at once.
import { MultiSelect, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import type { ContactSource } from '../flow-types';
import { ProblemsAlert } from './ProblemsAlert';
import { useReferences } from './references';

type Filter = { list_uuid?: string[]; tags?: string[] } & Record<string, unknown>;

const asList = (value: unknown): string[] =>
  Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];

export function SourcePanel(props: {
  source: ContactSource;
  problems: string[];
  editable: boolean;
  onChange(source: ContactSource, field: string): void;
}) {
  const senders = useReferences('sender_profile');
  const lists = useReferences('list');
  const tags = useReferences('tag');
  const { source } = props;
  const filter = (source.mass_actions_filter ?? {}) as Filter;
  const set = (change: Partial<ContactSource>, field: string) =>
    props.onChange({ ...source, ...change }, field);
  const setFilter = (key: 'list_uuid' | 'tags', values: string[]) => {
    const next: Filter = { ...filter };
    if (values.length > 0) next[key] = values;
    else delete next[key];
    set({ mass_actions_filter: Object.keys(next).length > 0 ? next : null }, `filter-${key}`);
  };
  return (
    <Stack gap="sm" role="region" aria-label="Contacts and senders">
      <div>
        <Title order={2} size="h4">
          Contacts and senders
        </Title>
        <Text size="sm" c="dimmed">
          Where contacts enter the flow (contact source {source.id}) and who works them.
        </Text>
      </div>
      <ProblemsAlert problems={props.problems} />
      <fieldset disabled={!props.editable} style={{ border: 0, padding: 0, margin: 0 }}>
        <Stack gap="sm">
          <TextInput
            label="Source name"
            value={source.name ?? ''}
            onChange={(e) => set({ name: e.currentTarget.value || null }, 'name')}
          />
          <MultiSelect
            label="Senders"
            description="Each new contact gets the least busy of these senders"
            searchable
            data={senders.data ?? []}
            value={source.sender_profiles ?? []}
            onChange={(value) => set({ sender_profiles: value }, 'senders')}
            placeholder={senders.data?.length === 0 ? 'No sender profiles yet' : undefined}
          />
          <MultiSelect
            label="Enrol every contact of these lists"
            description="While the flow runs, contacts matching are added within a minute (empty: add contacts by hand)"
            searchable
            data={lists.data ?? []}
            value={asList(filter.list_uuid)}
            onChange={(value) => setFilter('list_uuid', value)}
          />
          <MultiSelect
            label="…with any of these tags"
            searchable
            data={tags.data ?? []}
            value={asList(filter.tags)}
            onChange={(value) => setFilter('tags', value)}
          />
          <NumberInput
            label="Most contacts in the flow at once"
            description="Empty: no limit"
            min={1}
            max={10_000_000}
            value={source.active_limit ?? ''}
            onChange={(v) => set({ active_limit: v === '' ? null : Number(v) }, 'active_limit')}
          />
        </Stack>
      </fieldset>
    </Stack>
  );
}
