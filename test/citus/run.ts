// npm run test:citus [-- vitest args]: starts a Citus cluster (a coordinator and two workers, Debian's
// PostgreSQL 15 with Citus, temp dirs, free loopback ports), runs the test suite against it (every
// test file's database is distributed by team across both workers), then runs the router-query
// check over what the nodes logged. Exit code: vitest's, or 1 when the check finds a statement.
import { spawn } from 'node:child_process';
import { citusUnavailable, startCitusCluster } from './cluster.js';
import { describeViolations, findViolations } from './router-check.js';

const why = citusUnavailable();
if (why) {
  process.stderr.write(
    `test:citus needs Citus: ${why}. Install it with ../shared/vendor/citus/build.sh (as root).\n`,
  );
  process.exit(2);
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const cluster = await startCitusCluster({
  workers: 2,
  log,
  settings: {
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    // Four shards (two per worker) keep each test file's database clone small.
    'citus.shard_count': '4',
    // The router-query check: every multi-shard plan is logged with its statement.
    'citus.multi_task_query_log_level': 'log',
    log_min_error_statement: 'log',
    // Shard moves copy a shard group while it keeps taking writes (test/citus/rebalance.test.ts).
    wal_level: 'logical',
  },
});

let code = 1;
// Ctrl-C or a CI timeout: stop the nodes (they run in their own process groups).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void cluster.stop().finally(() => process.exit(130)));
}
try {
  const vitest = spawn('npx', ['vitest', 'run', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, LEADFLOW_TEST_CITUS: JSON.stringify(cluster.topology) },
  });
  code = await new Promise<number>((resolve) => vitest.once('exit', (c) => resolve(c ?? 1)));
  const violations = findViolations(
    [cluster.coordinator.dataDir, ...cluster.workers.map((w) => w.dataDir)],
    // Migrations (run once, in the template) may span teams.
    (database) => /^leadflow_test_template_[0-9a-f]+$/.test(database),
  );
  if (violations.length > 0) {
    log(`\n${describeViolations(violations)}`);
    code = code || 1;
  } else {
    log(
      '\nRouter-query check: every statement of the application reached one shard group (or is marked cross-team).',
    );
  }
} finally {
  await cluster.stop();
}
process.exit(code);
