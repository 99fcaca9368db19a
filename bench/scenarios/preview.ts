// The flow preview (POST /flows/api/flows/{uuid}/preview) on the simulation's scenario: 5 senders in
// five time zones, the simulation's flow (invitation, acceptance trigger, message, A/B split, filter,
// reply trigger), 1,000 and 10,000 contacts over 30 days. Reports the whole answer's time beside the
// simulation loop's own (the rest: loading contacts and senders, preparing the renderer, the report).

import { type BenchRow, median, type Scenario } from '../lib.js';
import { setupScenario } from '../simulation.js';

const START = new Date('2026-03-02T08:00:00Z');

export const previewScenario: Scenario = {
  name: 'preview',
  description: 'flow preview: 1,000 and 10,000 contacts x 30 days (goal: 1,000 x 30 within 5 s)',
  async run(server, log) {
    const { handle, config, services } = await server.newDatabase('bench_preview');
    const { teamId, flow } = await setupScenario(
      handle.db,
      config,
      { senders: 5, enrollments: 10_000 },
      START,
      false,
    );
    const rows: BenchRow[] = [];
    for (const contacts of [1000, 10_000]) {
      const wall: number[] = [];
      const core: number[] = [];
      let actions = 0;
      for (let run = 0; run < 3; run += 1) {
        const started = performance.now();
        const result = await services.flows.preview.preview(teamId, flow, {
          sample: contacts,
          days: 30,
          start_at: START.toISOString(),
          detail: 20,
        });
        wall.push(performance.now() - started);
        core.push(result.stats.simulation_ms);
        actions = result.stats.actions;
        log(
          `  ${contacts} x 30: ${Math.round(wall.at(-1)!)} ms (loop ${result.stats.simulation_ms} ms, ${actions} actions, ${result.stats.steps} steps)`,
        );
      }
      rows.push(
        {
          scenario: 'preview',
          metric: `${contacts} contacts x 30 days, whole answer`,
          value: Math.round(median(wall)),
          unit: 'ms',
          ...(contacts === 1000 ? { goal: '< 5000 ms', pass: median(wall) < 5000 } : {}),
        },
        {
          scenario: 'preview',
          metric: `${contacts} contacts x 30 days, simulation loop`,
          value: Math.round(median(core)),
          unit: 'ms',
        },
      );
    }
    return rows;
  },
};
