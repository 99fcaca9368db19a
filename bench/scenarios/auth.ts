// Authenticated GET /id/api/users/current against an unauthenticated no-op route, alternating rounds in
// one run. Goal: the real route keeps >= 40% of the no-op throughput. Key lookups and the user record
// come from the auth cache, which is live here as in an API process (it follows the database's change
// notifications), so a second authenticated route that reads the database on every request
// (GET /id/api/teams/:id) is reported too, to show the cost of an uncached read.
import { type BenchRow, listen, load, median, type Scenario } from '../lib.js';

export const authScenario: Scenario = {
  name: 'auth',
  description: 'GET /id/api/users/current (and an uncached DB read) vs a no-op route',
  async run(server, log) {
    const deps = await server.newDatabase('auth');
    const { api_key, team_id } = await deps.services.identity.createUserWithTeam({
      email: 'bench@example.test',
      teamName: 'Bench',
    });
    if (!deps.services.identity.authCache.live) throw new Error('the auth cache is not following changes');
    const { app, url } = await listen(deps, (instance) => {
      instance.get('/bench/noop', { schema: { hide: true } }, async () => ({ ok: true }));
    });
    const headers = { authorization: `Bearer ${api_key}` };
    const targets = {
      noop: { url: `${url}/bench/noop`, headers: {} },
      current: { url: `${url}/id/api/users/current`, headers },
      team: { url: `${url}/id/api/teams/${team_id}`, headers },
    };
    const rps: Record<keyof typeof targets, number[]> = { noop: [], current: [], team: [] };
    const p99: Record<keyof typeof targets, number[]> = { noop: [], current: [], team: [] };
    for (let round = 0; round < 3; round++) {
      for (const [name, target] of Object.entries(targets) as [
        keyof typeof targets,
        (typeof targets)['noop'],
      ][]) {
        const result = await load({ ...target, duration: 4 });
        if (result.non2xx > 0 || result.errors > 0)
          throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        rps[name].push(result.requestsPerSecond);
        p99[name].push(result.p99);
      }
      log(
        `  round ${round + 1}: ${Object.entries(rps)
          .map(([n, v]) => `${n} ${Math.round(v[round]!)} req/s`)
          .join(', ')}`,
      );
    }
    await app.close();
    const noop = median(rps.noop);
    const rows: BenchRow[] = [
      {
        scenario: 'auth',
        metric: 'GET /id/api/users/current',
        value: median(rps.current),
        unit: 'req/s',
        baseline: noop,
        goal: '>= 40% of no-op',
        pass: median(rps.current) / noop >= 0.4,
      },
      {
        scenario: 'auth',
        metric: 'users/current p99',
        value: median(p99.current),
        unit: 'ms',
        baseline: median(p99.noop),
      },
      {
        scenario: 'auth',
        metric: 'GET /id/api/teams/:id (DB read each request)',
        value: median(rps.team),
        unit: 'req/s',
        baseline: noop,
      },
      {
        scenario: 'auth',
        metric: 'teams/:id p99',
        value: median(p99.team),
        unit: 'ms',
        baseline: median(p99.noop),
      },
    ];
    return rows;
  },
};
