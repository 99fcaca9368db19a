// A short run of the deterministic simulation (npm run simulate runs the 30-day one): every invariant
// holds with workers killed at random points along the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSimulation } from '../../../bench/simulation.js';
import { createTestContext, type TestContext } from '../../../test/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('the simulation', () => {
  it('keeps every promise over four days with crashes injected', async () => {
    const report = await runSimulation(ctx.db, ctx.config, {
      seed: 11,
      days: 4,
      senders: 3,
      enrollments: 150,
      crashRate: 0.03,
    });
    expect(report.crashes).toBeGreaterThan(0);
    expect(report.sends.linkedin_send_connection_request).toBeGreaterThan(30);
    expect(report.sends.linkedin_send_message).toBeGreaterThan(0);
    for (const invariant of report.invariants) {
      expect({
        name: invariant.name,
        violations: invariant.violations,
        detail: invariant.detail,
      }).toMatchObject({
        violations: 0,
      });
    }
  }, 240_000);
});
