// Blacklists: contacts (by e-mail, LinkedIn, name, company name) and companies (by domain, LinkedIn, name)
// that outreach must skip. Add an entry (the API flags what it matches), search the entries, delete one.
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Pagination,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call, messageOf } from '../../api';
import { useConfirm } from '../../ui/confirm';
import { fieldMessage } from '../../ui/field-error';
import { when } from '../../ui/format';

type Field = { key: string; label: string; placeholder: string };
type Kind = {
  path: '/leads/api/leads-blacklist' | '/leads/api/companies-blacklist';
  noun: string;
  intro: string;
  fields: Field[];
};
type Entry = { uuid: string; created_at: string } & Record<string, string | number | null>;

const KINDS: Record<'contacts' | 'companies', Kind> = {
  contacts: {
    path: '/leads/api/leads-blacklist',
    noun: 'contact',
    intro:
      'Contacts matching an entry (every field it sets) are flagged blacklisted: flows stop for them, and imports and mass actions skip them. An unsubscribe adds its address here.',
    fields: [
      { key: 'email', label: 'E-mail', placeholder: 'name@rival.example' },
      { key: 'linkedin', label: 'LinkedIn profile', placeholder: 'URL or nickname' },
      { key: 'name', label: 'Full name', placeholder: 'Jane Doe' },
      { key: 'company_name', label: 'Company name', placeholder: 'Rival Inc' },
    ],
  },
  companies: {
    path: '/leads/api/companies-blacklist',
    noun: 'company',
    intro:
      'Companies matching an entry (every field it sets) are flagged blacklisted, and so are their contacts for outreach.',
    fields: [
      { key: 'domain', label: 'Domain', placeholder: 'rival.example' },
      { key: 'linkedin', label: 'LinkedIn page', placeholder: 'URL or page slug' },
      { key: 'name', label: 'Company name', placeholder: 'Rival Inc' },
    ],
  },
};
const PAGE = 25;

export function BlacklistPage() {
  return (
    <Tabs defaultValue="contacts" keepMounted={false}>
      <Tabs.List aria-label="Blacklist of">
        <Tabs.Tab value="contacts">Contacts</Tabs.Tab>
        <Tabs.Tab value="companies">Companies</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="contacts" pt="md">
        <Blacklist kind={KINDS.contacts} />
      </Tabs.Panel>
      <Tabs.Panel value="companies" pt="md">
        <Blacklist kind={KINDS.companies} />
      </Tabs.Panel>
    </Tabs>
  );
}

function Blacklist({ kind }: { kind: Kind }) {
  const queryClient = useQueryClient();
  const { confirm, dialog } = useConfirm();
  const empty = Object.fromEntries(kind.fields.map((f) => [f.key, '']));
  const [draft, setDraft] = useState<Record<string, string>>(empty);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [page, setPage] = useState(1);
  const key = ['blacklist', kind.path];
  const entries = useQuery({
    queryKey: [...key, q, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(
        api.GET(kind.path, {
          params: {
            query: {
              limit: PAGE,
              offset: (page - 1) * PAGE,
              order_field: 'created_at',
              order_type: 'desc',
              ...(q ? { filter: { q } } : {}),
            },
          },
        }),
      ) as Promise<{ data: Entry[]; total: number }>,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key });
    void queryClient.invalidateQueries({ queryKey: ['contacts'] });
  };
  const add = useMutation({
    mutationFn: () => {
      const body = Object.fromEntries(
        Object.entries(draft)
          .map(([k, v]) => [k, v.trim()])
          .filter(([, v]) => v !== ''),
      );
      return call(api.POST(kind.path, { body: body as never }));
    },
    onSuccess: () => {
      setDraft(empty);
      notifications.show({ message: `Added to the ${kind.noun} blacklist.` });
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (uuid: string) => call(api.DELETE(`${kind.path}/{uuid}`, { params: { path: { uuid } } })),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate();
  }

  const named = kind.fields.some((f) => fieldMessage(add.error, f.key));
  const formError = add.error && !named ? add.error.message : undefined;
  const rows = entries.data?.data ?? [];
  const total = entries.data?.total ?? 0;
  const describe = (row: Entry) =>
    kind.fields
      .map((f) => row[f.key])
      .filter((v) => v !== null && v !== undefined && v !== '')
      .join(', ') || String(row.ln_id ?? row.uuid);
  return (
    <Stack>
      <Text>{kind.intro}</Text>
      <form onSubmit={submit} aria-label={`Blacklist a ${kind.noun}`}>
        <Group align="flex-start">
          {kind.fields.map((f) => (
            <TextInput
              key={f.key}
              label={f.label}
              placeholder={f.placeholder}
              value={draft[f.key] ?? ''}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setDraft((d) => ({ ...d, [f.key]: value }));
              }}
              error={fieldMessage(add.error, f.key)}
            />
          ))}
          <Button type="submit" mt={25} loading={add.isPending}>
            Add to blacklist
          </Button>
        </Group>
        {formError && (
          <Alert color="red" role="alert" mt="sm">
            {add.error instanceof ApiError && add.error.status === 409
              ? 'This entry is on the blacklist already.'
              : formError}
          </Alert>
        )}
      </form>
      <TextInput
        label="Search the blacklist"
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        w={320}
      />
      {entries.isSuccess && rows.length === 0 ? (
        <Text>
          {q
            ? `No entry matches “${q}”.`
            : `The ${kind.noun} blacklist is empty. Add an entry above to keep outreach away from it.`}
        </Text>
      ) : (
        <Table aria-label={`${kind.noun === 'contact' ? 'Contact' : 'Company'} blacklist`}>
          <Table.Thead>
            <Table.Tr>
              {kind.fields.map((f) => (
                <Table.Th key={f.key}>{f.label}</Table.Th>
              ))}
              <Table.Th>Added</Table.Th>
              <Table.Th>
                <span className="lf-visually-hidden">Actions</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.uuid}>
                {kind.fields.map((f) => (
                  <Table.Td key={f.key}>{String(row[f.key] ?? '')}</Table.Td>
                ))}
                <Table.Td>{when(row.created_at)}</Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${describe(row)} from the blacklist`}
                    onClick={() =>
                      confirm(
                        `Remove “${describe(row)}” from the blacklist? Matching records are no longer flagged.`,
                        'Remove',
                        () => remove.mutate(row.uuid),
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
      {total > PAGE && (
        <Pagination
          total={Math.ceil(total / PAGE)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
        />
      )}
      {dialog}
    </Stack>
  );
}
