// Authenticated, database-backed GET /id/api/users/current against an unauthenticated no-op route,
// alternating rounds in one run. Goal: the real route keeps >= 40% of the no-op throughput.
import { listen, load, median, type Scenario } from '../lib.js';

export const authScenario: Scenario = {
  name: 'auth',
  description: 'GET /id/api/users/current vs a no-op route',
  async run(server, log) {
    const deps = await server.newDatabase('auth');
    const { api_key } = await deps.services.identity.createUserWithTeam({
      email: 'bench@example.test',
      teamName: 'Bench',
    });
    const { app, url } = await listen(deps, (instance) => {
      instance.get('/bench/noop', { schema: { hide: true } }, async () => ({ ok: true }));
    });
    const noop: number[] = [];
    const authed: number[] = [];
    const noopP99: number[] = [];
    const authedP99: number[] = [];
    for (let round = 0; round < 3; round++) {
      const a = await load({ url: `${url}/bench/noop`, duration: 4 });
      const b = await load({
        url: `${url}/id/api/users/current`,
        duration: 4,
        headers: { authorization: `Bearer ${api_key}` },
      });
      if (b.non2xx > 0 || b.errors > 0)
        throw new Error(`auth bench saw ${b.non2xx} non-2xx and ${b.errors} errors`);
      noop.push(a.requestsPerSecond);
      authed.push(b.requestsPerSecond);
      noopP99.push(a.p99);
      authedP99.push(b.p99);
      log(
        `  round ${round + 1}: no-op ${Math.round(a.requestsPerSecond)} req/s, users/current ${Math.round(b.requestsPerSecond)} req/s`,
      );
    }
    await app.close();
    const ratio = median(authed) / median(noop);
    return [
      {
        scenario: 'auth',
        metric: 'GET /id/api/users/current',
        value: median(authed),
        unit: 'req/s',
        baseline: median(noop),
        goal: '>= 40% of no-op',
        pass: ratio >= 0.4,
      },
      {
        scenario: 'auth',
        metric: 'users/current p99',
        value: median(authedP99),
        unit: 'ms',
        baseline: median(noopP99),
      },
    ];
  },
};
