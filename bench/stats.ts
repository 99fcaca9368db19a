// Statistics and the result table of the benchmarks: percentiles of timed runs, rows with their goal.
export type BenchRow = {
  scenario: string;
  metric: string;
  value: number;
  unit: string;
  /** Value of the baseline measured in the same run, when the goal is a ratio. */
  baseline?: number;
  goal?: string;
  /** Whether the goal is met (undefined when there is no goal). */
  pass?: boolean;
};

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Runs `fn` `times` times and returns each duration in milliseconds. */
export async function timeRuns(times: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await fn(i);
    durations.push(performance.now() - start);
  }
  return durations;
}

/** p50 and p95 rows of `durations`; the p95 carries the goal and the baseline when given. */
export function latencyRows(
  scenario: string,
  metric: string,
  durations: number[],
  options: { goalMs?: number; baseline?: number } = {},
): BenchRow[] {
  const p50 = percentile(durations, 50);
  const p95 = percentile(durations, 95);
  return [
    { scenario, metric: `${metric} p50`, value: p50, unit: 'ms' },
    {
      scenario,
      metric: `${metric} p95`,
      value: p95,
      unit: 'ms',
      ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
      ...(options.goalMs === undefined
        ? {}
        : { goal: `p95 < ${options.goalMs} ms`, pass: p95 < options.goalMs }),
    },
  ];
}

/** Three warm-up runs of `fn`, then the durations of `runs` more. */
export async function measureRuns(runs: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  await timeRuns(3, fn);
  return timeRuns(runs, fn);
}

export function formatTable(rows: BenchRow[]): string {
  const header = ['scenario', 'metric', 'value', 'baseline', 'ratio', 'goal', 'ok'];
  const body = rows.map((row) => [
    row.scenario,
    row.metric,
    `${round(row.value)} ${row.unit}`,
    row.baseline === undefined ? '' : `${round(row.baseline)} ${row.unit}`,
    row.baseline ? `${((row.value / row.baseline) * 100).toFixed(0)}%` : '',
    row.goal ?? '',
    row.pass === undefined ? '' : row.pass ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)].join('\n');
}

function round(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(value >= 10 ? 1 : 2);
}
