// Whether this test run is on a Citus cluster (`npm run test:citus` started one and passed its topology in
// LEADFLOW_TEST_CITUS). A Citus test file asks with `onCitus('the ... tests')`; elsewhere (`npm test`, CI
// on a machine without Citus) the file is skipped with one printed line saying why and what runs it.
import { citusUnavailable } from './cluster.js';

const reported = new Set<string>();

export function onCitus(what: string): boolean {
  if (process.env.LEADFLOW_TEST_CITUS) return true;
  const why = citusUnavailable();
  const line = why
    ? `skipping ${what}: Citus is not installed (${why}); ../shared/vendor/citus/build.sh installs it, then run npm run test:citus`
    : `skipping ${what}: no Citus cluster in this run (npm run test:citus -- test/citus starts one)`;
  if (!reported.has(line)) {
    reported.add(line);
    process.stderr.write(`${line}\n`);
  }
  return false;
}
