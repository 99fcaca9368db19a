// A table over a server-paged list of any size: TanStack Table holds the columns (order, visibility,
// sorting), TanStack Virtual renders only the rows on screen, and each 100-row page is fetched (and
// cached by TanStack Query) when it scrolls into view.
import { Box, Checkbox, Skeleton, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type VisibilityState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useMemo, useRef } from 'react';
import { PAGE_SIZE } from './paging';

const ROW_HEIGHT = 41;

export type Page<T> = { data: T[]; total: number };
/** A column's own rendering of a row (links, badges); without it the accessor's value is shown as text. */
export type CellMeta<T> = { render?: (row: T) => ReactNode };
export type Sort = { field: string; direction: 'asc' | 'desc' };

export type VirtualTableProps<T extends { uuid: string }> = {
  /** Identifies the list and its filters; pages are cached under it. */
  queryKey: readonly unknown[];
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>;
  columns: ColumnDef<T>[];
  columnVisibility: VisibilityState;
  sort: Sort;
  sortable: readonly string[];
  onSort: (sort: Sort) => void;
  /** Rows picked with their checkboxes; without onSelect the table has no checkbox column. */
  selected?: Set<string>;
  onSelect?: (next: Set<string>) => void;
  /** The accessible name of a row's checkbox ("Select <label>"); needed with onSelect. */
  rowLabel?: (row: T) => string;
  onOpen?: (row: T) => void;
  empty: ReactNode;
  caption: string;
  height?: string;
};

export function VirtualTable<T extends { uuid: string }>(props: VirtualTableProps<T>) {
  const first = useQuery({
    queryKey: [...props.queryKey, 0],
    queryFn: () => props.fetchPage(0, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const total = first.data?.total ?? 0;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const pageNumbers = useMemo(() => {
    const set = new Set<number>();
    for (const item of items) set.add(Math.floor(item.index / PAGE_SIZE));
    set.delete(0);
    return [...set];
  }, [items]);
  const pages = useQueries({
    queries: pageNumbers.map((n) => ({
      queryKey: [...props.queryKey, n],
      queryFn: () => props.fetchPage(n * PAGE_SIZE, PAGE_SIZE),
      staleTime: 30_000,
    })),
  });
  const rowAt = (index: number): T | undefined => {
    const n = Math.floor(index / PAGE_SIZE);
    const page = n === 0 ? first.data : pages[pageNumbers.indexOf(n)]?.data;
    return page?.data[index - n * PAGE_SIZE];
  };

  const table = useReactTable({
    data: [],
    columns: props.columns,
    state: { columnVisibility: props.columnVisibility },
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
  });
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const visibleColumns = table.getVisibleLeafColumns();
  const selectable = props.onSelect !== undefined;
  const span = visibleColumns.length + (selectable ? 1 : 0);
  const before = items[0]?.start ?? 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;

  function toggle(uuid: string) {
    const next = new Set(props.selected);
    if (next.has(uuid)) next.delete(uuid);
    else next.add(uuid);
    props.onSelect?.(next);
  }

  if (first.isError) {
    return (
      <Text c="red" role="alert">
        {first.error.message}
      </Text>
    );
  }
  if (first.data && total === 0) return <Box py="xl">{props.empty}</Box>;

  return (
    <Box ref={scroller} h={props.height ?? 'calc(100vh - 220px)'} style={{ overflow: 'auto' }} tabIndex={0}>
      <Table stickyHeader highlightOnHover={false} aria-label={props.caption} aria-rowcount={total + 1}>
        <Table.Thead>
          <Table.Tr>
            {selectable && (
              <Table.Th w={40}>
                <VisuallyHidden>Selected</VisuallyHidden>
              </Table.Th>
            )}
            {headers.map((header) => {
              const id = header.column.id;
              const sortable = props.sortable.includes(id);
              const active = props.sort.field === id;
              const label = flexRender(header.column.columnDef.header, header.getContext());
              return (
                <Table.Th
                  key={header.id}
                  aria-sort={
                    active ? (props.sort.direction === 'asc' ? 'ascending' : 'descending') : undefined
                  }
                >
                  {sortable ? (
                    <UnstyledButton
                      fw={600}
                      fz="sm"
                      onClick={() =>
                        props.onSort({
                          field: id,
                          direction: active && props.sort.direction === 'desc' ? 'asc' : 'desc',
                        })
                      }
                    >
                      {label} {active ? (props.sort.direction === 'asc' ? '↑' : '↓') : ''}
                    </UnstyledButton>
                  ) : (
                    label
                  )}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {before > 0 && (
            <tr style={{ height: before }}>
              <td colSpan={span} />
            </tr>
          )}
          {items.map((item) => {
            const row = rowAt(item.index);
            if (!row) {
              return (
                <Table.Tr key={item.key} style={{ height: ROW_HEIGHT }} aria-rowindex={item.index + 2}>
                  <Table.Td colSpan={span}>
                    <Skeleton height={12} aria-label="Loading" />
                  </Table.Td>
                </Table.Tr>
              );
            }
            const isSelected = props.selected?.has(row.uuid) ?? false;
            return (
              <Table.Tr
                key={item.key}
                className="lf-table-row"
                data-selected={isSelected}
                style={{ height: ROW_HEIGHT, cursor: props.onOpen ? 'pointer' : undefined }}
                aria-rowindex={item.index + 2}
                onClick={() => props.onOpen?.(row)}
              >
                {selectable && (
                  <Table.Td onClick={(e) => e.stopPropagation()}>
                    <Checkbox
                      aria-label={`Select ${props.rowLabel?.(row) ?? row.uuid}`}
                      checked={isSelected}
                      onChange={() => toggle(row.uuid)}
                    />
                  </Table.Td>
                )}
                {visibleColumns.map((column) => {
                  const def = column.columnDef as ColumnDef<T> & { accessorFn?: (r: T) => unknown };
                  const render = (def.meta as CellMeta<T> | undefined)?.render;
                  return (
                    <Table.Td
                      key={column.id}
                      style={{
                        maxWidth: 260,
                        overflow: 'hidden',
                        textOverflow: 'ellipsis',
                        whiteSpace: 'nowrap',
                      }}
                    >
                      {render ? render(row) : String(def.accessorFn?.(row) ?? '')}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            );
          })}
          {after > 0 && (
            <tr style={{ height: after }}>
              <td colSpan={span} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
