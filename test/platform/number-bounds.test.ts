// Numbers past a column's range are 422s naming the field: the schemas declare the real bounds, and the
// error handler maps the database's range and format errors to 422s as a safety net, without ever
// repeating the database's own text.
import { sql } from 'kysely';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORABLE_DATE_TIME_PATTERN } from '../../src/lib/timestamps.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

let ctx: TestContext;
let alice: TestUser;
let listUuid: string;

const DATABASE_WORDS =
  /out of range for type|invalid input syntax|integer out of range|bigint|\bsmallint\b|syntax for type/;

function expect422(
  res: { statusCode: number; body: string; json(): { message: string; error: { data: object } } },
  field: string,
) {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().error.data, res.body).toHaveProperty([field]);
  expect(res.json().message).toContain(field);
  expect(res.body).not.toMatch(DATABASE_WORDS);
}

beforeAll(async () => {
  ctx = await createTestContext({
    // Test-only routes that hand client values straight to SQL, to exercise the safety net.
    routes: (app) => {
      app.post(
        '/test/api/cast',
        {
          schema: {
            body: Type.Object(
              { amount: Type.Number(), ref: Type.String(), when: Type.String() },
              { additionalProperties: false, examples: [{ amount: 1, ref: 'x', when: 'x' }] },
            ),
          },
        },
        async (request) => {
          const body = request.body as { amount: number; ref: string; when: string };
          await sql`select ${body.amount}::integer, ${body.ref}::uuid, ${body.when}::timestamptz`.execute(
            ctx.db,
          );
          return { ok: true };
        },
      );
      app.post(
        '/test/api/scale',
        {
          schema: {
            body: Type.Object(
              { amount: Type.Number() },
              { additionalProperties: false, examples: [{ amount: 1 }] },
            ),
          },
        },
        async (request) => {
          await sql`select ${(request.body as { amount: number }).amount}::integer * 1000`.execute(ctx.db);
          return { ok: true };
        },
      );
    },
  });
  alice = await ctx.createUser();
  listUuid = (
    await ctx.request(alice, { method: 'POST', url: '/leads/api/lists', payload: { name: 'L' } })
  ).json().uuid;
});
afterAll(() => ctx.close());

describe('declared bounds', () => {
  it('refuses contact counts past int32 on create and upsert', async () => {
    for (const field of ['connections_number', 'followers_number']) {
      const created = await ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/leads',
        payload: { list_uuid: listUuid, leads: [{ name: 'Big', [field]: 2 ** 31 }] },
      });
      expect422(created, `leads.0.${field}`);
      const upserted = await ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/leads/upsert',
        payload: { list_uuid: listUuid, lead: { linkedin_id: 'big-one', [field]: 1e21 } },
      });
      expect422(upserted, `lead.${field}`);
    }
    const atLimit = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: listUuid, leads: [{ name: 'Max', connections_number: 2 ** 31 - 1 }] },
    });
    expect(atLimit.statusCode, atLimit.body).toBe(200);
  });

  it('refuses company numbers past their columns', async () => {
    for (const [field, value] of [
      ['followers', 2 ** 31],
      ['employees_on_linkedin', 1e21],
      ['year_established', 10_000],
    ] as const) {
      const res = await ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/companies',
        payload: { companies: [{ name: 'Big Co', [field]: value }] },
      });
      expect422(res, `companies.0.${field}`);
    }
  });

  it('refuses dates the database cannot store (year 0000, offsets past \u00b115:59) and documents it', async () => {
    for (const when of ['2026-01-01T09:00:00+16:00', '0000-06-01T09:00:00Z', '2026-01-01T09:00:00-23:59']) {
      const task = await ctx.request(alice, {
        method: 'POST',
        url: '/flows/api/tasks',
        payload: { type: 'manual_task', schedule_at: when },
      });
      // Other required fields are missing too: the point is that schedule_at is named among them.
      expect(task.statusCode, task.body).toBe(422);
      expect(task.json().error.data, task.body).toHaveProperty(['schedule_at']);
      const search = await ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/leads/search',
        payload: { filter: { created_at: { from: when } } },
      });
      expect(search.statusCode, search.body).toBe(422);
      expect(search.body).toContain('created_at');
      expect(search.body).not.toMatch(DATABASE_WORDS);
    }
    const period = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/metrics',
      payload: { metrics: ['leads_count'], period_from: '0000-01-01' },
    });
    expect422(period, 'period_from');
    // The edge of the range is accepted, and the document states the bound the validator enforces.
    const search = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/search',
      payload: { filter: { created_at: { from: '0001-01-01T00:00:00-15:59' } } },
    });
    expect(search.statusCode, search.body).toBe(200);
    const document = (await ctx.request(null, { method: 'GET', url: '/openapi.json' })).body;
    expect(document).toContain(JSON.stringify(STORABLE_DATE_TIME_PATTERN));
  });

  it('refuses offsets past the bound on GET lists and POST searches', async () => {
    expect422(
      await ctx.request(alice, { method: 'GET', url: '/leads/api/lists?offset=9223372036854775808' }),
      'offset',
    );
    expect422(await ctx.request(alice, { method: 'GET', url: '/leads/api/tags?offset=1e30' }), 'offset');
    expect422(
      await ctx.request(alice, { method: 'POST', url: '/leads/api/leads/search', payload: { offset: 1e20 } }),
      'offset',
    );
    expect422(
      await ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/companies/list',
        payload: { limit: 1e21 },
      }),
      'limit',
    );
    const far = await ctx.request(alice, { method: 'GET', url: '/leads/api/lists?offset=2147483647' });
    expect(far.statusCode).toBe(200);
    expect(far.json()).toMatchObject({ data: [], offset: 2147483647 });
  });

  it('refuses path ids past bigint', async () => {
    expect422(await ctx.request(alice, { method: 'GET', url: '/id/api/teams/9223372036854775808' }), 'id');
    expect422(
      await ctx.request(alice, { method: 'DELETE', url: '/id/api/api-keys/99999999999999999999' }),
      'id',
    );
    const unknown = await ctx.request(alice, { method: 'GET', url: '/id/api/teams/9007199254740991' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the database safety net', () => {
  const cast = (payload: object) => ctx.request(alice, { method: 'POST', url: '/test/api/cast', payload });
  const valid = { amount: 1, ref: '0190f000-0000-7000-8000-000000000001', when: '2026-01-01T00:00:00Z' };

  it('answers a value out of an integer column\u2019s range with a 422 naming the field', async () => {
    const res = await cast({ ...valid, amount: 3_000_000_000 });
    expect422(res, 'amount');
    expect(res.json().message).toBe('amount is out of range (-2147483648 to 2147483647).');
    expect422(await cast({ ...valid, amount: 1e21 }), 'amount');
  });

  it('answers malformed values with the expected type, not the database text', async () => {
    const badUuid = await cast({ ...valid, ref: 'not-a-uuid' });
    expect422(badUuid, 'ref');
    expect(badUuid.json().message).toBe('ref has the wrong format (expected a UUID).');
    const badDate = await cast({ ...valid, when: 'yesterday-ish' });
    expect422(badDate, 'when');
  });

  it('still answers when the value cannot be traced to a field', async () => {
    const ok = await cast(valid);
    expect(ok.statusCode, ok.body).toBe(200);
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/test/api/scale',
      payload: { amount: 3_000_000 },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe('A number in the request is out of range (-2147483648 to 2147483647).');
    expect(res.body).not.toMatch(DATABASE_WORDS);
  });
});
