// Mass assignment, route-wide: every write operation of the OpenAPI document (so every route added later
// too) refuses server-owned keys (team_id, uuid, user_id, created_at) and unknown keys with a 422 naming
// the key, aimed at this team's records and at another team's, and the database is unchanged after all
// of it. The registration rule itself (an open body schema stops the app) is checked at the end.
import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dereference } from '../../src/http/openapi-components.js';
import { openObjects, registerSchemaRules, unboundedIntegers } from '../../src/http/schema-rules.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

type JsonSchema = Record<string, unknown>;
type Operation = {
  method: string;
  path: string;
  media: string | undefined;
  schema: JsonSchema | undefined;
  example: unknown;
};

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let operations: Operation[];

const UNKNOWN_UUID = '0190f000-0000-7000-8000-0000000000ff';
const SERVER_OWNED = ['team_id', 'uuid', 'user_id', 'created_at'];
const WRITE = new Set(['post', 'put', 'patch', 'delete']);

/** One JSON digest per table of every schema we own (job queue included); volatile touch times left out. */
async function fingerprint(): Promise<Record<string, string>> {
  const tables = await ctx.db
    .selectFrom('information_schema.tables' as never)
    .select(['table_schema', 'table_name'] as never)
    .where('table_type' as never, '=', 'BASE TABLE' as never)
    .where('table_schema' as never, 'in', ['public', 'graphile_worker'] as never)
    .execute();
  const result: Record<string, string> = {};
  for (const { table_schema, table_name } of tables as Array<{ table_schema: string; table_name: string }>) {
    const name = `"${table_schema}"."${table_name}"`;
    const { rows } = await ctx.database.pool.query(
      `select md5(coalesce(string_agg((to_jsonb(t) - 'last_used_at')::text, '|' order by (to_jsonb(t) - 'last_used_at')::text), '')) as digest from ${name} t`,
    );
    result[name] = rows[0].digest;
  }
  return result;
}

async function seed(user: TestUser) {
  const post = async (url: string, payload: object) => {
    const res = await ctx.request(user, { method: 'POST', url, payload });
    expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const list = await post('/leads/api/lists', { name: 'Seed list' });
  const [lead] = await post('/leads/api/leads', { list_uuid: list.uuid, leads: [{ name: 'Seed Lead' }] });
  const [company] = await post('/leads/api/companies', { companies: [{ name: 'Seed Co' }] });
  await post('/leads/api/tags', { name: 'seed' });
  await post('/leads/api/pipeline-stages', { name: 'Seed stage', object: 'lead', category: 'cold' });
  await post('/leads/api/custom-fields', { name: 'seed_field', object: 'lead' });
  await post('/leads/api/notes', { object: 'lead', object_uuid: lead.uuid, note: 'seed' });
  await post('/leads/api/leads-blacklist', { email: 'seed@blocked.test' });
  await post('/leads/api/companies-blacklist', { domain: 'blocked.test' });
  await post('/integrations/api/webhooks', {
    name: 'Seed hook',
    event: 'contact_replied_email',
    target_url: 'https://93.184.215.14/hooks',
  });
  return { list, lead, company };
}

/** A record of `user` for each path parameter: the first of the parent collection, else an unknown id. */
async function fillPath(path: string, user: TestUser): Promise<string> {
  const collection = path.slice(0, path.indexOf('/{'));
  const res = await ctx.request(user, { method: 'GET', url: `${collection}?limit=1` });
  const body = res.statusCode === 200 ? res.json() : undefined;
  const first = (Array.isArray(body) ? body : body?.data)?.[0];
  let seen = 0;
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    seen += 1;
    if (name === 'id') return String(first?.id ?? 999_999);
    return seen === 1 && typeof first?.uuid === 'string' ? first.uuid : UNKNOWN_UUID;
  });
}

function documentedProperties(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  // An object's own properties, and those of its alternatives (a union, or "at least one of" rules).
  const branches = [schema, ...((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[])];
  return [...new Set(branches.flatMap((branch) => Object.keys((branch.properties as object) ?? {})))];
}

function multipart(fields: Record<string, string>) {
  const boundary = '----closedbodies';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const file = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="a.csv"\r\ncontent-type: text/csv\r\n\r\nname\r\nAnn\r\n`;
  return {
    payload: `${parts.join('')}${file}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  await seed(alice);
  await seed(bob);
  const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json());
  operations = Object.entries(document.paths as Record<string, Record<string, JsonSchema>>)
    .filter(([path]) => /^\/[a-z-]+\/(c1\/)?api\//.test(path))
    .flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => WRITE.has(method))
        .map(([method, op]) => {
          const content = (op.requestBody as { content?: Record<string, JsonSchema> } | undefined)?.content;
          const media = content ? Object.keys(content)[0] : undefined;
          const entry = media ? content?.[media] : undefined;
          return {
            method: method.toUpperCase(),
            path,
            media,
            schema: entry?.schema as JsonSchema | undefined,
            example: entry?.example,
          };
        }),
    );
});
afterAll(() => ctx.close());

describe('every write operation', () => {
  it('is found in the document', () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  it('never documents a server-owned key as a body field', () => {
    // A flow node's created_at is the editor's timestamp, part of the node as a version holds it (api-facts
    // 1.15): validate-node takes a node exactly as it was read.
    const ownedByBody = new Set(['POST /flows/api/flow-versions/validate-node: created_at']);
    const offenders = operations.flatMap((op) =>
      documentedProperties(op.schema)
        .filter((key) => key === 'team_id' || key === 'user_id' || key === 'created_at')
        .filter((key) => !ownedByBody.has(`${op.method} ${op.path}: ${key}`))
        .map((key) => `${op.method} ${op.path}: ${key}`),
    );
    expect(offenders).toEqual([]);
  });

  it('refuses server-owned and unknown keys with a 422 naming them, and changes nothing', async () => {
    // One request first, so the key's last_used_at touch (once a minute) is not counted as a change.
    await ctx.request(alice, { method: 'GET', url: '/id/api/users/current' });
    const before = await fingerprint();
    const failures: string[] = [];
    let probes = 0;
    for (const op of operations) {
      const documented = new Set(documentedProperties(op.schema));
      const base =
        op.example && typeof op.example === 'object' && !Array.isArray(op.example) ? op.example : {};
      const targets = [await fillPath(op.path, alice), await fillPath(op.path, bob)];
      const probesOf = [...SERVER_OWNED, 'zz_not_a_field']
        // A documented `uuid` names another record (the webhook whose secret signs a test, the export to
        // download), it never sets the record's own id.
        .filter((key) => !documented.has(key));
      for (const url of targets) {
        for (const key of probesOf) {
          const value =
            key === 'team_id'
              ? bob.teamId
              : key === 'user_id'
                ? bob.userId
                : key === 'uuid'
                  ? UNKNOWN_UUID
                  : '2020-01-01T00:00:00Z';
          const request =
            op.media === 'multipart/form-data'
              ? multipart({ [key]: String(value) })
              : { payload: { ...(base as object), [key]: value }, headers: {} };
          const res = await ctx.request(alice, {
            method: op.method as 'POST',
            url,
            payload: request.payload,
            headers: request.headers,
          });
          probes += 1;
          const data = res.statusCode === 422 ? (res.json().error?.data ?? {}) : {};
          if (res.statusCode !== 422 || !(key in data)) {
            failures.push(`${op.method} ${url} {${key}} -> ${res.statusCode} ${res.body.slice(0, 160)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(probes).toBeGreaterThan(300);
    expect(await fingerprint()).toEqual(before);
  }, 120_000);

  it('names the unknown key and lists the accepted ones', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/tags',
      payload: { name: 'x', colour: '#fff' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The colour field is not accepted here. Accepted fields: name, color.');
    expect(res.json().error.data).toEqual({ colour: [res.json().message] });
  });

  it('refuses a body on an operation that takes none, and still takes an empty one', async () => {
    const tag = (
      await ctx.request(alice, { method: 'POST', url: '/leads/api/tags', payload: { name: 'gone' } })
    ).json();
    const refused = await ctx.request(alice, {
      method: 'DELETE',
      url: `/leads/api/tags/${tag.uuid}`,
      payload: { team_id: bob.teamId },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain('takes no body');
    const empty = await ctx.request(alice, {
      method: 'DELETE',
      url: `/leads/api/tags/${tag.uuid}`,
      payload: {},
    });
    expect(empty.statusCode).toBe(204);
  });
});

describe('the closed-body rule', () => {
  it('finds open objects anywhere in a body schema and accepts declared maps', () => {
    expect(openObjects(Type.Object({ name: Type.String() }))).toEqual([
      'body is an open object: give it additionalProperties: false (or make it a Type.Record)',
    ]);
    const nested = Type.Object(
      {
        items: Type.Array(Type.Object({ a: Type.String() })),
        choice: Type.Union([Type.Object({ b: Type.String() }, { additionalProperties: false }), Type.Null()]),
        map: Type.Record(Type.String(), Type.Unknown()),
      },
      { additionalProperties: false },
    );
    expect(openObjects(nested)).toEqual([
      'body.items[] is an open object: give it additionalProperties: false (or make it a Type.Record)',
    ]);
  });

  it('stops a route with an open body from being registered', () => {
    const app = Fastify();
    registerSchemaRules(app);
    expect(() =>
      app.post(
        '/test/api/open',
        { schema: { body: Type.Object({ name: Type.String() }) } },
        async () => ({}),
      ),
    ).toThrow(/POST \/test\/api\/open: request schemas break the rules[\s\S]*body is an open object/);
  });

  it('stops a route whose integers have no bounds, in any part of the request', () => {
    const app = Fastify();
    registerSchemaRules(app);
    expect(() =>
      app.get(
        '/test/api/page',
        { schema: { querystring: Type.Object({ offset: Type.Integer({ minimum: 0 }) }) } },
        async () => ({}),
      ),
    ).toThrow(/query.offset is an integer without a maximum/);
    expect(unboundedIntegers(Type.Object({ n: Type.Integer({ minimum: 0, maximum: 9 }) }), 'body')).toEqual(
      [],
    );
  });
});
