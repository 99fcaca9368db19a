// npm run simulate [-- --days 30 --senders 50 --enrollments 100000 --crash-rate 0.002 --seed 7]:
// the engine's deterministic simulation on a dedicated database; prints the figures and every
// invariant, and exits 1 when one is broken.
import { parseArgs } from 'node:util';
import { startBenchServer } from './lib.js';
import { runSimulation } from './simulation.js';

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    senders: { type: 'string', default: '50' },
    enrollments: { type: 'string', default: '100000' },
    'crash-rate': { type: 'string', default: '0.002' },
    seed: { type: 'string', default: '7' },
  },
});
const options = {
  days: Number(values.days),
  senders: Number(values.senders),
  enrollments: Number(values.enrollments),
  crashRate: Number(values['crash-rate']),
  seed: Number(values.seed),
};
const log = (line: string) => process.stderr.write(`${line}\n`);
log(`simulating ${JSON.stringify(options)}`);
const server = await startBenchServer();
let failed = false;
try {
  const { handle, config } = await server.newDatabase('simulate');
  const report = await runSimulation(handle.db, config, { ...options, log });
  const lines = [
    '',
    `simulated ${report.simulatedDays} days in ${(report.wallMs / 1000).toFixed(1)} s wall time`,
    `${report.ticks} ticks, ${report.steps} node visits, ${report.actions} actions, ${report.crashes} injected crashes`,
    `sends: ${JSON.stringify(report.sends)}`,
    `enrollments: ${JSON.stringify(report.enrollments)}`,
    '',
    'invariants:',
    ...report.invariants.map(
      (i) =>
        `  ${i.violations === 0 ? 'ok  ' : 'FAIL'} ${i.name}: ${i.violations} violation(s) - ${i.detail}`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  failed = report.invariants.some((i) => i.violations > 0);
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
