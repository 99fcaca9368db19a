// npm run bench:citus [-- --scaling] scenario...: the benchmark scenarios on Citus beside the same scenarios
// on one PostgreSQL, in one run on this machine. Each database is started fresh from the same binaries
// (Debian's PostgreSQL 15; test/citus/cluster.ts): one server without the citus extension (the baseline),
// then a coordinator with two workers. --scaling adds a coordinator with one worker, so "1 vs 2 workers"
// is measured on the same data sizes. The scenarios run one database after the other (never side by
// side: they would compete for the same cores) and the table gives each metric on each database and the
// ratio Citus / PostgreSQL (for ms lower is better, for rates higher is better).
//
// Sizes come from the scenarios' own variables (BENCH_CRM_CONTACTS, BENCH_FILES_ROWS, BENCH_ENGINE_ACTIVE,
// BENCH_ENGINE_FINISHED, BENCH_TASKS, ...), passed through unchanged to every database.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { citusUnavailable } from '../test/citus/cluster.js';
import type { BenchRow } from './lib.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { scaling: { type: 'boolean', default: false } },
});
const why = citusUnavailable();
if (why) {
  process.stderr.write(`bench:citus needs Citus: ${why}. Install it with ../shared/vendor/citus/build.sh.\n`);
  process.exit(2);
}

const targets = [
  { label: 'PostgreSQL', workers: 0 },
  { label: 'Citus 2w', workers: 2 },
  ...(values.scaling ? [{ label: 'Citus 1w', workers: 1 }] : []),
];

async function runOn(workers: number, dir: string): Promise<BenchRow[]> {
  const out = path.join(dir, `rows-${workers}.json`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...positionals], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, BENCH_CITUS: String(workers), BENCH_JSON: out },
  });
  const code = await new Promise<number>((resolve) => child.once('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) throw new Error(`the scenarios failed on ${workers} worker(s) (exit ${code})`);
  return JSON.parse(await readFile(out, 'utf8')) as BenchRow[];
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'leadflow-bench-citus-'));
const results: BenchRow[][] = [];
try {
  for (const target of targets) {
    process.stderr.write(`\n== ${target.label} ==\n`);
    results.push(await runOn(target.workers, dir));
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

const key = (row: BenchRow) => `${row.scenario}\n${row.metric}`;
const byTarget = results.map((rows) => new Map(rows.map((row) => [key(row), row])));
const fmt = (v: number | undefined) =>
  v === undefined ? '-' : v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(v >= 10 ? 1 : 2);
const header = ['scenario', 'metric', 'unit', ...targets.map((t) => t.label), 'Citus 2w / PostgreSQL'];
if (values.scaling) header.push('2w / 1w');
const body = results[0]!.map((row) => {
  const [plain, two, one] = byTarget.map((m) => m.get(key(row))?.value);
  const ratio = (a?: number, b?: number) => (a !== undefined && b ? `${(a / b).toFixed(2)}x` : '-');
  const cells = [row.scenario, row.metric, row.unit, fmt(plain), fmt(two)];
  if (values.scaling) cells.push(fmt(one));
  cells.push(ratio(two, plain));
  if (values.scaling) cells.push(ratio(two, one));
  return cells;
});
const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
process.stdout.write(
  `\n${[line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...body.map(line)].join('\n')}\n`,
);
