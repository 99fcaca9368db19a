// npm run bench [-- scenario ...]: runs the benchmark scenarios and prints one table.

import { writeFileSync } from 'node:fs';
import { type BenchRow, formatTable, startBenchServer } from './lib.js';
import { scenarios } from './scenarios/index.js';

const wanted = process.argv.slice(2);
const selected = wanted.length > 0 ? scenarios.filter((s) => wanted.includes(s.name)) : scenarios;
if (selected.length === 0) {
  process.stderr.write(
    `No scenario named ${wanted.join(', ')}. Available: ${scenarios.map((s) => s.name).join(', ')}\n`,
  );
  process.exit(2);
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const server = await startBenchServer();
const rows: BenchRow[] = [];
try {
  for (const scenario of selected) {
    log(`> ${scenario.name}: ${scenario.description}`);
    const started = Date.now();
    rows.push(...(await scenario.run(server, log)));
    log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
} finally {
  await server.stop();
}
process.stdout.write(`\n${formatTable(rows)}\n`);
// bench/citus.ts reads the rows of each database it ran the scenarios on.
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(rows));
