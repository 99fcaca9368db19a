// A table's selection for mass actions: rows picked with their checkboxes, or all that match the list's
// filter; the summary says which and offers "Select all N that match" and "Clear selection".
import { Button, Text } from '@mantine/core';
import { useState } from 'react';
import type { RecordSelection } from './BulkActions';

export function useRowSelection() {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  return {
    selected,
    setSelected,
    allMatching,
    setAllMatching,
    clear: () => {
      setSelected(new Set());
      setAllMatching(false);
    },
    /** The API's filter: the picked ids, or the list's filter (every record without one). */
    selection: (filter: Record<string, unknown> | undefined): RecordSelection =>
      allMatching ? (filter ?? { all: true }) : { ids: [...selected] },
    count: (total: number) => (allMatching ? total : selected.size),
  };
}

export function SelectionSummary(props: {
  rows: ReturnType<typeof useRowSelection>;
  total: number;
  /** "contacts" */
  noun: string;
}) {
  const { rows, total } = props;
  return (
    <>
      {rows.allMatching ? (
        <Text size="sm">
          All {total} {props.noun} that match are selected.
        </Text>
      ) : (
        rows.selected.size > 0 && <Text size="sm">{rows.selected.size} selected.</Text>
      )}
      {!rows.allMatching && total > 0 && (
        <Button variant="subtle" size="xs" onClick={() => rows.setAllMatching(true)}>
          Select all {total} that match
        </Button>
      )}
      {(rows.allMatching || rows.selected.size > 0) && (
        <Button variant="subtle" size="xs" onClick={rows.clear}>
          Clear selection
        </Button>
      )}
    </>
  );
}
