// A chart with the numbers behind it one click away: "Chart" / "Table" switch the view of the same rows,
// "Export CSV" downloads them. Every chart of the app goes through here, so none hides its numbers.
import '@mantine/charts/styles.css';
import { Button, Group, SegmentedControl, Table, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';

export type Column<R> = { key: keyof R & string; label: string; format?: (value: R[keyof R]) => string };

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv<R>(rows: R[], columns: Column<R>[]): string {
  const lines = [columns.map((c) => csvCell(c.label)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c.key])).join(','));
  return `${lines.join('\n')}\n`;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ChartOrTable<R>({
  title,
  rows,
  columns,
  chart,
  fileName,
}: {
  /** Names the chart, the table and the controls for assistive technology. */
  title: string;
  rows: R[];
  columns: Column<R>[];
  chart: ReactNode;
  fileName: string;
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    <section aria-label={title}>
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{title}</Text>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(v) => setView(v as 'chart' | 'table')}
            data={[
              { value: 'chart', label: 'Chart' },
              { value: 'table', label: 'Table' },
            ]}
            aria-label={`${title}: view`}
          />
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => download(fileName, toCsv(rows, columns))}
          >
            Export CSV
          </Button>
        </Group>
      </Group>
      {view === 'chart' ? (
        <div role="img" aria-label={`${title} (chart; the Table view lists the numbers)`}>
          {chart}
        </div>
      ) : (
        // A scrolling region takes the keyboard focus, so it scrolls without a mouse (WCAG 2.1.1).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
        <section tabIndex={0} aria-label={`${title}: numbers`} style={{ maxHeight: 360, overflow: 'auto' }}>
          <Table striped withTableBorder fz="xs" aria-label={title}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.key}>{c.label}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their order
                <Table.Tr key={i}>
                  {columns.map((c) => (
                    <Table.Td key={c.key}>
                      {c.format ? c.format(row[c.key]) : String(row[c.key] ?? '')}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </section>
      )}
    </section>
  );
}
