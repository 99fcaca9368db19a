// Contacts: a server-paged, virtualised table of every contact of the team, searchable and sortable,
// with a column chooser; "New contact" creates one in a list.
import { Anchor, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { ColumnChooser } from '../../ui/ColumnChooser';
import { SavedViews } from '../../ui/SavedViews';
import { SelectionSummary, useRowSelection } from '../../ui/selection';
import { useStoredState } from '../../ui/useStoredState';
import { type CellMeta, type Sort, VirtualTable } from '../../ui/VirtualTable';
import { BulkActions } from './BulkActions';
import { type Contact, contactName } from './contact';
import { contactsKey, DEFAULT_SORT, fetchContacts } from './contacts-query';
import { FilterBuilder, useFilterFields } from './FilterBuilder';
import { type Condition, toFilter } from './filter-model';
import { NewContactButton } from './NewContactButton';
import { contactsViewContent, contactsViewState, useMoveLocalViews } from './SavedViews';

const SORTABLE = ['name', 'company_name', 'created_at', 'updated_at'] as const;

const DEFAULT_VISIBILITY: Record<string, boolean> = { updated_at: false };

const COLUMNS: (ColumnDef<Contact> & { id: string; header: string })[] = [
  {
    id: 'name',
    header: 'Name',
    accessorFn: contactName,
    meta: {
      render: (c) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/contacts/$uuid" params={{ uuid: c.uuid }} />}>
          {contactName(c)}
        </Anchor>
      ),
    } satisfies CellMeta<Contact>,
  },
  { id: 'position', header: 'Position', accessorFn: (c) => c.position },
  { id: 'company_name', header: 'Company', accessorFn: (c) => c.company_name },
  { id: 'email', header: 'E-mail', accessorFn: (c) => c.work_email ?? c.personal_email },
  { id: 'location', header: 'Location', accessorFn: (c) => c.raw_address },
  { id: 'tags', header: 'Tags', accessorFn: (c) => c.tags?.length ?? 0 },
  {
    id: 'created_at',
    header: 'Added',
    accessorFn: (c) => (c.created_at ? new Date(c.created_at).toLocaleDateString() : ''),
  },
  {
    id: 'updated_at',
    header: 'Updated',
    accessorFn: (c) => (c.updated_at ? new Date(c.updated_at).toLocaleDateString() : ''),
  },
];

const COLUMN_IDS = COLUMNS.map((c) => c.id);

export function ContactsPage() {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [sort, setSort] = useStoredState<Sort>('contacts.sort', DEFAULT_SORT);
  const [visibility, setVisibility] = useStoredState('contacts.columns', DEFAULT_VISIBILITY);
  const rows = useRowSelection();
  const [conditions, setConditions] = useStoredState<Condition[]>('contacts.filters', []);
  const [debounced] = useDebouncedValue(conditions, 300);
  const fields = useFilterFields(conditions.length > 0);
  useMoveLocalViews(COLUMN_IDS);
  const filter = useMemo(() => {
    const built = toFilter(debounced, fields) ?? {};
    const f = q ? { ...built, q } : built;
    return Object.keys(f).length > 0 ? f : undefined;
  }, [q, debounced, fields]);
  const queryKey = contactsKey(sort, filter);
  const firstPage = useQuery<{ total: number }>({ queryKey: [...queryKey, 0], enabled: false }).data;
  const total = firstPage?.total ?? 0;
  const clearSelection = rows.clear;

  const fetchPage = (offset: number, limit: number) => fetchContacts(sort, filter, offset, limit);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Contacts
        </Title>
        <Group align="end" wrap="wrap">
          <SavedViews
            page="contacts"
            noun="contacts"
            // Read after the first rows, which do not wait behind them.
            enabled={firstPage !== undefined}
            current={contactsViewContent({ conditions, visibility, sort }, COLUMN_IDS)}
            onOpen={(view) => {
              const next = contactsViewState(view, COLUMN_IDS, {
                conditions: [],
                visibility: DEFAULT_VISIBILITY,
                sort: DEFAULT_SORT,
              });
              setConditions(next.conditions);
              setVisibility(next.visibility);
              setSort(next.sort);
              clearSelection();
            }}
          />
          <ColumnChooser
            columns={COLUMNS.map((c) => ({ id: c.id, label: c.header }))}
            visibility={visibility}
            onChange={setVisibility}
          />
          <NewContactButton />
        </Group>
      </Group>
      <Group>
        <TextInput
          aria-label="Search contacts"
          placeholder="Search by name, e-mail, company…"
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={360}
          maw="100%"
        />
        <BulkActions selection={rows.selection(filter)} count={rows.count(total)} onDone={clearSelection} />
        <SelectionSummary rows={rows} total={total} noun="contacts" />
      </Group>
      <FilterBuilder
        fields={fields}
        conditions={conditions}
        onChange={(next) => {
          setConditions(next);
          clearSelection();
        }}
      />
      <VirtualTable<Contact>
        caption="Contacts"
        queryKey={queryKey}
        fetchPage={fetchPage}
        columns={COLUMNS}
        columnVisibility={visibility}
        sort={sort}
        sortable={SORTABLE}
        onSort={setSort}
        selected={rows.selected}
        onSelect={rows.setSelected}
        rowLabel={contactName}
        empty={
          filter ? (
            <Text>
              No contact matches{q ? ` “${q}”` : ' these filters'}. Try another search or change a filter.
            </Text>
          ) : (
            <Text>
              No contacts yet. Add one with <b>New contact</b>, or import a CSV file.
            </Text>
          )
        }
      />
    </Stack>
  );
}
