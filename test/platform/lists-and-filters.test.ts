// The shared list machinery (paging, sorting, the filter language in both its JSON and bracket forms,
// flat parameters, unknown parameters) exercised through the real HTTP stack on a test-only resource.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf } from '../../src/http/auth.js';
import { ListQuery, SearchBody } from '../../src/http/schemas.js';
import { compileFilter, type FilterSpec } from '../../src/lib/filter.js';
import {
  envelope,
  orderByClause,
  type PageParams,
  resolvePage,
  type SortSpec,
} from '../../src/lib/pagination.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

const TAG_A = '0190f000-0000-7000-8000-00000000000a';
const TAG_B = '0190f000-0000-7000-8000-00000000000b';

const spec: FilterSpec = {
  name: 'thing filter',
  fields: {
    name: { type: 'string', column: 't.name' },
    score: { type: 'integer', column: 't.score' },
    ratio: { type: 'number', column: 't.ratio' },
    active: { type: 'boolean', column: 't.active' },
    kind: { type: 'enum', column: 't.kind', values: ['alpha', 'beta', 'gamma'] },
    owner: { type: 'uuid', column: 't.owner' },
    tags: { type: 'uuid', column: 't.tags', array: true },
    created_at: { type: 'datetime', column: 't.created_at' },
  },
};
const sort: SortSpec = {
  fields: { created_at: 't.created_at', name: 't.name', score: 't.score' },
  tiebreaker: 't.id',
};

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

async function listThings(app: FastifyInstance) {
  const run = async (teamId: number, params: PageParams & { filter?: unknown }) => {
    const page = resolvePage(params, sort);
    const where = compileFilter(spec, params.filter) ?? sql`true`;
    const rows = await sql<{ name: string }>`
      select t.name from things t where t.team_id = ${teamId} and ${where}
      order by ${orderByClause(page, sort)} limit ${page.limit} offset ${page.offset}`.execute(ctx.db);
    const total = await sql<{
      n: number;
    }>`select count(*)::int as n from things t where t.team_id = ${teamId} and ${where}`.execute(ctx.db);
    return envelope(
      rows.rows.map((r) => r.name),
      total.rows[0]!.n,
      page,
    );
  };
  const response = {
    200: Type.Object({
      data: Type.Array(Type.String()),
      limit: Type.Integer(),
      offset: Type.Integer(),
      total: Type.Integer(),
      has_more: Type.Boolean(),
    }),
  };
  app.get(
    '/test/api/things',
    {
      config: { filterFields: Object.keys(spec.fields) },
      schema: { querystring: ListQuery(sort, Object.keys(spec.fields)), response },
    },
    async (request) => run(authOf(request).teamId, request.query as PageParams),
  );
  app.post(
    '/test/api/things/search',
    { schema: { body: SearchBody(sort, Object.keys(spec.fields)), response } },
    async (request) => run(authOf(request).teamId, request.body as PageParams),
  );
}

beforeAll(async () => {
  ctx = await createTestContext({ routes: listThings });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  await sql`create table things (team_id bigint, id serial, name text, score int, ratio numeric, active boolean,
    kind text, owner uuid, tags uuid[] default '{}', created_at timestamptz)`.execute(ctx.db);
  await sql`insert into things (team_id, name, score, ratio, active, kind, owner, tags, created_at) values
    (${alice.teamId}, 'one', 1, 0.5, true, 'alpha', ${TAG_A}, ${[TAG_A]}::uuid[], '2026-01-01T10:00:00Z'),
    (${alice.teamId}, 'two', 2, 1.5, false, 'beta', null, ${[TAG_A, TAG_B]}::uuid[], '2026-01-02T10:00:00Z'),
    (${alice.teamId}, 'three', 3, null, true, 'gamma', null, '{}', '2026-01-03T10:00:00Z'),
    (${alice.teamId}, 'four', 4, 4.5, null, null, null, ${[TAG_B]}::uuid[], '2026-01-31T23:00:00Z'),
    (${bob.teamId}, 'bob-one', 1, 0.5, true, 'alpha', null, '{}', '2026-01-01T10:00:00Z')`.execute(ctx.db);
});
afterAll(() => ctx.close());

const get = async (query: string) => {
  const res = await ctx.request(alice, { method: 'GET', url: `/test/api/things?${query}` });
  return res;
};
const names = async (query: string) => {
  const res = await get(`${query}&order_field=score&order_type=asc`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as string[];
};
const search = async (filter: unknown, extra: Record<string, unknown> = {}) =>
  ctx.request(alice, {
    method: 'POST',
    url: '/test/api/things/search',
    payload: { filter, order_field: 'score', order_type: 'asc', ...extra },
  });

describe('filter forms in the GET bracket query', () => {
  it('scalar equals, arrays, operators, null checks and ranges', async () => {
    expect(await names('filter[name]=two')).toEqual(['two']);
    expect(await names('filter[score][]=1&filter[score][]=3')).toEqual(['one', 'three']);
    expect(await names('filter[score][>=]=2&filter[score][<]=4')).toEqual(['two', 'three']);
    expect(await names('filter[score][!=]=2')).toEqual(['one', 'three', 'four']);
    expect(await names('filter[score][<>]=2')).toEqual(['one', 'three', 'four']);
    expect(await names('filter[kind][!=][]=alpha&filter[kind][!=][]=beta')).toEqual(['three', 'four']);
    expect(await names('filter[ratio]=is_null')).toEqual(['three']);
    expect(await names('filter[active]=is_not_null')).toEqual(['one', 'two', 'three']);
    expect(await names('filter[active]=false')).toEqual(['two']);
    expect(await names('filter[created_at][from]=2026-01-02&filter[created_at][to]=2026-01-31')).toEqual([
      'two',
      'three',
      'four',
    ]);
    expect(await names('filter[created_at][<=]=2026-01-01')).toEqual(['one']);
    expect(await names(`filter[tags]=${TAG_B}`)).toEqual(['two', 'four']);
    expect(await names(`filter[tags][]=${TAG_A}`)).toEqual(['one', 'two']);
    expect(await names('filter[tags]=is_null')).toEqual(['three']);
    expect(await names(`filter[owner]=${TAG_A}`)).toEqual(['one']);
  });

  it('accepts the filter as a JSON string too', async () => {
    expect(await names(`filter=${encodeURIComponent(JSON.stringify({ kind: ['alpha', 'gamma'] }))}`)).toEqual(
      ['one', 'three'],
    );
  });

  it('treats a flat parameter naming a filterable field like filter[field]', async () => {
    expect(await names('kind=beta')).toEqual(['two']);
    expect(await names('score=3&filter[kind]=gamma')).toEqual(['three']);
  });

  it('answers 400 for a query parameter the route does not know', async () => {
    const res = await get('colour=red');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.reason).toBe('bad_request');
    expect(res.json().message).toContain('"colour"');
    expect(res.json().message).toContain('filterable fields');
  });

  it('never leaks another team\u2019s rows', async () => {
    expect(await names('filter[name]=bob-one')).toEqual([]);
  });
});

describe('filter forms in POST bodies', () => {
  it('the same language as JSON', async () => {
    const res = await search({ score: { '>': 1, '<=': 3 }, kind: ['beta', 'gamma'], active: 'is_not_null' });
    expect(res.json().data).toEqual(['two', 'three']);
    const notIn = await search({ score: { '!=': [1, 2] } });
    expect(notIn.json().data).toEqual(['three', 'four']);
    const range = await search({ created_at: { from: '2026-01-01T12:00:00Z', to: '2026-01-03' } });
    expect(range.json().data).toEqual(['two', 'three']);
    const empty = await search({ score: [] });
    expect(empty.json()).toMatchObject({ data: [], total: 0 });
  });
});

describe('filter errors are 422s naming the key', () => {
  it.each([
    [{ colour: 'red' }, 'filter.colour', 'Accepted keys'],
    [{ score: { '~': 1 } }, 'filter.score.~', 'Accepted operators'],
    [{ score: 'abc' }, 'filter.score', 'integer'],
    [{ ratio: 'x' }, 'filter.ratio', 'number'],
    [{ active: 'maybe' }, 'filter.active', 'true or false'],
    [{ kind: 'delta' }, 'filter.kind', 'alpha, beta, gamma'],
    [{ owner: 'not-a-uuid' }, 'filter.owner', 'UUID'],
    [{ created_at: { from: 'yesterday' } }, 'filter.created_at.from', 'ISO 8601'],
    [{ score: { '>': [1, 2] } }, 'filter.score.>', 'does not take a list'],
    [{ owner: { '>': '0190f000-0000-7000-8000-00000000000a' } }, 'filter.owner.>', 'only takes'],
  ])('%j', async (filter, key, text) => {
    const res = await search(filter);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.reason).toBe('validation_error');
    expect(Object.keys(res.json().error.data)).toContain(key);
    expect(res.json().message).toContain(text);
  });

  it('rejects a filter that is not an object', async () => {
    const res = await search(['a']);
    expect(res.statusCode).toBe(422);
  });
});

describe('paging and sorting', () => {
  it('defaults, clamps and reports has_more', async () => {
    const all = await get('');
    expect(all.json()).toMatchObject({ limit: 20, offset: 0, total: 4, has_more: false });
    const page = await get('limit=2&offset=1&order_field=score&order_type=asc');
    expect(page.json()).toMatchObject({
      data: ['two', 'three'],
      limit: 2,
      offset: 1,
      total: 4,
      has_more: true,
    });
    expect((await get('limit=100000')).json().limit).toBe(1000);
    expect((await get('offset=20000')).json()).toMatchObject({ data: [], offset: 20000, total: 4 });
    const desc = await get('order_field=name&order_type=desc');
    expect(desc.json().data).toEqual(['two', 'three', 'one', 'four']);
    const numericDirection = await get('order_field=score&order_type=0');
    expect(numericDirection.json().data[0]).toBe('one');
  });

  it.each([
    'limit=0',
    'limit=abc',
    'limit=-5',
    'offset=-1',
    'offset=x',
    'order_type=up',
    'order_field=colour',
  ])('%s is a 422', async (query) => {
    const res = await get(query);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.reason).toBe('validation_error');
  });

  it('rejects wrongly typed paging in bodies', async () => {
    const res = await search({}, { limit: '20' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data).toHaveProperty('limit');
  });
});
