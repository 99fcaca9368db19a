// Replays, unchanged, the request shapes published clients of the hosted service send (the MCP server's,
// listed in test/fixtures/clients/mcp-requests.json) and checks the status and the response fields each
// client reads. A shape that stops working here breaks a real integration.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

type Replay = {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  status: number;
  reads: string[];
  save?: Record<string, string>;
};

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/clients/mcp-requests.json', import.meta.url), 'utf8'),
) as { requests: Replay[] };

let ctx: TestContext;
let alice: TestUser;
const values: Record<string, string> = {};

const fill = <T>(value: T): T =>
  JSON.parse(JSON.stringify(value).replace(/\{(\w+)\}/g, (match, name: string) => values[name] ?? match));

function at(body: unknown, path: string): unknown {
  return fill(path)
    .split('.')
    .reduce<unknown>(
      (node, key) =>
        node === null || typeof node !== 'object' ? undefined : (node as Record<string, unknown>)[key],
      body,
    );
}

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  const post = async (url: string, payload: object) => {
    const res = await ctx.request(alice, { method: 'POST', url, payload });
    expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const user = await ctx.db
    .selectFrom('users')
    .select('uuid')
    .where('id', '=', alice.userId)
    .executeTakeFirstOrThrow();
  values.user = user.uuid;
  values.sender = (await post('/flows/api/sender-profiles', { first_name: 'Sam' })).uuid;
  const list = await post('/leads/api/lists', { name: 'Replay' });
  values.list = list.uuid;
  values.lead = (
    await post('/leads/api/leads', { list_uuid: list.uuid, leads: [{ name: 'Ann Replay' }] })
  )[0].uuid;
  values.company = (await post('/leads/api/companies', { companies: [{ name: 'Replay Co' }] }))[0].uuid;
  values.flow = (
    await post('/flows/api/flows', {
      name: 'Outreach',
      use_sender_schedule: true,
      schedule: { timezone: 'UTC', timeblocks: [{ dow: 1, min: 540, max: 1080 }] },
    })
  ).uuid;
});
afterAll(() => ctx.close());

describe('request shapes of published clients', () => {
  it('are answered with the status and the fields the client reads, in order', async () => {
    const wrong: string[] = [];
    for (const replay of fixture.requests) {
      const res = await ctx.request(alice, {
        method: replay.method,
        url: fill(replay.path),
        ...(replay.body === undefined ? {} : { payload: fill(replay.body) as object }),
      });
      if (res.statusCode !== replay.status) {
        wrong.push(`${replay.name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        continue;
      }
      const body = res.body === '' ? null : res.json();
      for (const path of replay.reads) {
        if (at(body, path) === undefined)
          wrong.push(`${replay.name}: no ${fill(path)} in ${res.body.slice(0, 200)}`);
      }
      for (const [name, path] of Object.entries(replay.save ?? {})) values[name] = String(at(body, path));
    }
    expect(wrong).toEqual([]);
    expect(fixture.requests.length).toBeGreaterThan(20);
  });
});
