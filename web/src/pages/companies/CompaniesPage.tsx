// Companies: a server-paged, virtualised table of every company of the team (POST /leads/api/companies/list),
// searchable and sortable, with a column chooser and saved views; a row opens the company's page; rows picked
// (or all that match the search) take mass actions.
import type { paths } from '@leadflow/sdk';
import { Anchor, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { api, call } from '../../api';
import { ColumnChooser } from '../../ui/ColumnChooser';
import { SavedViews, visibilityOf, visibleColumns } from '../../ui/SavedViews';
import { SelectionSummary, useRowSelection } from '../../ui/selection';
import { useStoredState } from '../../ui/useStoredState';
import { type CellMeta, type Sort, VirtualTable } from '../../ui/VirtualTable';
import { CompanyBulkActions } from './BulkActions';
import { NewCompanyButton } from './NewCompanyButton';

type SearchBody = NonNullable<
  paths['/leads/api/companies/list']['post']['requestBody']
>['content']['application/json'];
type CompanyPage =
  paths['/leads/api/companies/list']['post']['responses']['200']['content']['application/json'];
type Company = CompanyPage['data'][number];

const DEFAULT_SORT: Sort = { field: 'created_at', direction: 'desc' };
const SORTABLE = ['name', 'employees_on_linkedin', 'created_at', 'updated_at'] as const;
const DEFAULT_VISIBILITY: Record<string, boolean> = { updated_at: false };
const day = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString() : '');

const COLUMNS: (ColumnDef<Company> & { id: string; header: string })[] = [
  {
    id: 'name',
    header: 'Name',
    accessorFn: (c) => c.name,
    meta: {
      render: (c) => (
        <Anchor renderRoot={(props) => <Link {...props} to="/companies/$uuid" params={{ uuid: c.uuid }} />}>
          {c.name || 'Unnamed company'}
        </Anchor>
      ),
    } satisfies CellMeta<Company>,
  },
  { id: 'domain', header: 'Domain', accessorFn: (c) => c.domain },
  { id: 'industry', header: 'Industry', accessorFn: (c) => c.industry },
  {
    id: 'employees_on_linkedin',
    header: 'Employees',
    accessorFn: (c) => c.employees_on_linkedin ?? c.employees_range,
  },
  { id: 'location', header: 'Headquarters', accessorFn: (c) => c.hq_raw_address },
  { id: 'tags', header: 'Tags', accessorFn: (c) => c.tags?.length ?? 0 },
  { id: 'created_at', header: 'Added', accessorFn: (c) => day(c.created_at) },
  { id: 'updated_at', header: 'Updated', accessorFn: (c) => day(c.updated_at) },
];
const COLUMN_IDS = COLUMNS.map((c) => c.id);

function fetchCompanies(sort: Sort, q: string, offset: number, limit: number) {
  return call(
    api.POST('/leads/api/companies/list', {
      body: {
        limit,
        offset,
        order_field: sort.field as SearchBody['order_field'],
        order_type: sort.direction,
        ...(q ? { filter: { q } } : {}),
      },
    }),
  ) as Promise<CompanyPage>;
}

export function CompaniesPage() {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const [sort, setSort] = useStoredState<Sort>('companies.sort', DEFAULT_SORT);
  const [visibility, setVisibility] = useStoredState('companies.columns', DEFAULT_VISIBILITY);
  const queryKey = ['companies', 'list', sort, q] as const;
  const firstPage = useQuery<CompanyPage>({ queryKey: [...queryKey, 0], enabled: false }).data;
  const rows = useRowSelection();
  const total = firstPage?.total ?? 0;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Companies
        </Title>
        <Group align="end" wrap="wrap">
          <SavedViews
            page="companies"
            noun="companies"
            enabled={firstPage !== undefined}
            current={{ filter: q ? { q } : {}, sort, columns: visibleColumns(COLUMN_IDS, visibility) }}
            onOpen={(view) => {
              setSearch(typeof view.filter.q === 'string' ? view.filter.q : '');
              setVisibility(visibilityOf(COLUMN_IDS, view.columns, DEFAULT_VISIBILITY));
              setSort(view.sort ?? DEFAULT_SORT);
              rows.clear();
            }}
          />
          <ColumnChooser
            columns={COLUMNS.map((c) => ({ id: c.id, label: c.header }))}
            visibility={visibility}
            onChange={setVisibility}
          />
          <NewCompanyButton />
        </Group>
      </Group>
      <Group>
        <TextInput
          aria-label="Search companies"
          placeholder="Search by name, domain…"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            rows.setAllMatching(false);
          }}
          w={360}
          maw="100%"
        />
        <CompanyBulkActions
          selection={rows.selection(q ? { q } : undefined)}
          count={rows.count(total)}
          onDone={rows.clear}
        />
        <SelectionSummary rows={rows} total={total} noun="companies" />
      </Group>
      <VirtualTable<Company>
        caption="Companies"
        queryKey={queryKey}
        fetchPage={(offset, limit) => fetchCompanies(sort, q, offset, limit)}
        columns={COLUMNS}
        columnVisibility={visibility}
        sort={sort}
        sortable={SORTABLE}
        onSort={setSort}
        selected={rows.selected}
        onSelect={rows.setSelected}
        rowLabel={(c) => c.name || 'Unnamed company'}
        onOpen={(c) => void navigate({ to: '/companies/$uuid', params: { uuid: c.uuid } })}
        empty={
          q ? (
            <Text>No company matches “{q}”. Try another search.</Text>
          ) : (
            <Text>
              No companies yet. Add one with <b>New company</b>, or{' '}
              <Anchor renderRoot={(props) => <Link {...props} to="/imports" />}>
                import companies from a CSV file
              </Anchor>
              .
            </Text>
          )
        }
      />
    </Stack>
  );
}
