// The demo through the real API, run by the engine on a manual clock: within minutes of simulated time
// the sandbox network accepts invitations and the flow sends its messages.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineHarness, type EngineHarness } from '../test/engine-harness.js';
import { buildDemo, demoInstructions } from './demo.js';

let h: EngineHarness;
beforeAll(async () => {
  // The API enrolls with the database's clock, so the engine's clock starts at the real time.
  h = await createEngineHarness({
    start: new Date(),
    env: { LEADFLOW_SANDBOX_ACCEPT_RATE: '0.6', LEADFLOW_SANDBOX_REPLY_RATE: '0.3' },
  });
});
afterAll(() => h.close());

describe('leadflow demo', () => {
  it('sets up a running flow whose invitations, acceptances and messages show within minutes', async () => {
    const result = await buildDemo(h.ctx.app, h.user.apiKey);
    expect(result.contacts).toBe(50);
    const started = h.clock.now().getTime();
    await h.run(
      async () => {
        const messages = await sql<{ n: number }>`
        select count(*)::int as n from sandbox_linkedin_actions where action = 'linkedin_send_message'`.execute(
          h.ctx.db,
        );
        return (messages.rows[0]?.n ?? 0) >= 10;
      },
      { stepMs: 5000 },
    );
    expect(h.clock.now().getTime() - started).toBeLessThan(15 * 60_000);
    // The tasks the instructions point at are there.
    const tasks = await h.ctx.request(h.user, {
      method: 'GET',
      url: `/flows/api/tasks?filter[flow_uuid]=${result.flowUuid}&filter[type]=linkedin_send_message&limit=1`,
    });
    expect(tasks.statusCode).toBe(200);
    expect(tasks.json().total).toBeGreaterThanOrEqual(10);
    const text = demoInstructions(result, h.user.apiKey, 'http://127.0.0.1:8080');
    expect(text).toContain(h.user.apiKey);
    expect(text).toContain(result.flowUuid);
  }, 120_000); // a few hundred engine ticks: slow when the machine is shared
});
