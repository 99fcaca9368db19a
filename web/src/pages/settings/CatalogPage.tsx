// Lists, tags, pipeline stages and custom fields: one page each over the same shape - the records by
// name (with their object, category or type), create, rename in place, delete after a confirmation.
import { ActionIcon, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, messageOf } from '../../api';
import { useConfirm } from '../../ui/confirm';
import { EditableField } from '../../ui/EditableField';
import { fieldMessage } from '../../ui/field-error';

type Choice = { key: string; label: string; options: string[] };
type Catalog = {
  path: string;
  noun: string;
  plural: string;
  cacheKey: string;
  intro: string;
  choices: Choice[];
};
type Row = { uuid: string; name: string } & Record<string, unknown>;

const OBJECT: Choice = { key: 'object', label: 'For', options: ['lead', 'company'] };
const CATALOGS: Record<string, Catalog> = {
  lists: {
    path: '/leads/api/lists',
    noun: 'list',
    plural: 'Lists',
    cacheKey: 'lists',
    intro: 'Every contact is in one list; imports and new contacts choose it.',
    choices: [],
  },
  tags: {
    path: '/leads/api/tags',
    noun: 'tag',
    plural: 'Tags',
    cacheKey: 'tags',
    intro: 'Tags mark contacts and companies; filters, flows and bulk actions use them.',
    choices: [],
  },
  stages: {
    path: '/leads/api/pipeline-stages',
    noun: 'stage',
    plural: 'Pipeline stages',
    cacheKey: 'pipeline-stages',
    intro: 'Stages are the columns of the pipeline board, for contacts and for companies.',
    choices: [
      OBJECT,
      { key: 'category', label: 'Category', options: ['cold', 'engaging', 'positive', 'negative'] },
    ],
  },
  fields: {
    path: '/leads/api/custom-fields',
    noun: 'custom field',
    plural: 'Custom fields',
    cacheKey: 'custom-fields',
    intro: 'Custom fields hold what the standard fields do not; names are letters, digits and underscores.',
    choices: [OBJECT, { key: 'type', label: 'Type', options: ['string', 'number', 'boolean', 'date'] }],
  },
};

export const ListsPage = () => <CatalogPage catalog={CATALOGS.lists!} />;
export const TagsPage = () => <CatalogPage catalog={CATALOGS.tags!} />;
export const StagesPage = () => <CatalogPage catalog={CATALOGS.stages!} />;
export const CustomFieldsPage = () => <CatalogPage catalog={CATALOGS.fields!} />;

function CatalogPage({ catalog }: { catalog: Catalog }) {
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const [name, setName] = useState('');
  const [choices, setChoices] = useState<Record<string, string>>(
    Object.fromEntries(catalog.choices.map((c) => [c.key, c.options[0]!])),
  );
  const key = [catalog.cacheKey, 'settings'];
  const rows = useQuery({
    queryKey: key,
    queryFn: () =>
      call(api.GET(catalog.path as never, { params: { query: { limit: 1000 } } } as never)) as Promise<{
        data: Row[];
      }>,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: [catalog.cacheKey] });
  const create = useMutation({
    mutationFn: () =>
      call(api.POST(catalog.path as never, { body: { name: name.trim(), ...choices } } as never)),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (uuid: string) =>
      call(api.DELETE(`${catalog.path}/{uuid}` as never, { params: { path: { uuid } } } as never)),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const rename = (uuid: string, value: string | null) =>
    call(
      api.PUT(
        `${catalog.path}/{uuid}` as never,
        { params: { path: { uuid } }, body: { name: value ?? '' } } as never,
      ),
    ).then(refresh);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  const data = rows.data?.data ?? [];
  return (
    <Stack>
      <Text>{catalog.intro}</Text>
      <form onSubmit={submit}>
        <Group align="flex-start">
          <TextInput
            label={`New ${catalog.noun} name`}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={
              fieldMessage(create.error, 'name') ??
              (create.error && !fieldMessage(create.error, 'name') ? create.error.message : undefined)
            }
          />
          {catalog.choices.map((c) => (
            <Select
              key={c.key}
              label={c.label}
              data={c.options}
              value={choices[c.key] ?? null}
              onChange={(v) => v && setChoices((x) => ({ ...x, [c.key]: v }))}
              allowDeselect={false}
              w={150}
            />
          ))}
          <Button type="submit" mt={25} loading={create.isPending}>
            Create {catalog.noun}
          </Button>
        </Group>
      </form>
      {rows.isSuccess && data.length === 0 ? (
        <Text>No {catalog.plural.toLowerCase()} yet. Create the first one above.</Text>
      ) : (
        <Table aria-label={catalog.plural}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              {catalog.choices.map((c) => (
                <Table.Th key={c.key}>{c.label}</Table.Th>
              ))}
              <Table.Th>
                <span className="lf-visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.map((row) => (
              <Table.Tr key={row.uuid}>
                <Table.Td>
                  <EditableField
                    label={`Name of ${row.name}`}
                    field="name"
                    value={row.name}
                    onSave={(v) => rename(row.uuid, v)}
                  />
                </Table.Td>
                {catalog.choices.map((c) => (
                  <Table.Td key={c.key}>{String(row[c.key] ?? '')}</Table.Td>
                ))}
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${row.name}`}
                    onClick={() =>
                      confirm(`Delete the ${catalog.noun} “${row.name}”?`, 'Delete', () =>
                        remove.mutate(row.uuid),
                      )
                    }
                  >
                    ×
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {dialog}
    </Stack>
  );
}
