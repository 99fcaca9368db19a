// Contract test, route-wide: for every API operation of the OpenAPI document (so every route added later
// too), a request is generated from the document's own schemas - path, query and body - with
// json-schema-faker (seeded, so runs repeat), checked against the documented schema, and sent as a team
// member against the real app. What the document calls valid must not be refused for its shape: no 400,
// no 415, no 422 other than one about a referenced record (random UUIDs name nothing; that is data, not
// shape), never a status the operation does not document, never a success answer off its documented
// schema, and never a 5xx. Where the server checks more than the schema says, the schema is to be fixed
// (formats, patterns, enums, anyOf/oneOf) - not this test.
import { createHash } from 'node:crypto';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { generate } from 'json-schema-faker';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATH } from '../../src/http/auth.js';
import { CUSTOM_FORMATS } from '../../src/http/formats.js';
import { dereference } from '../../src/http/openapi-components.js';
import { validationFailure, validatorCompiler } from '../../src/http/validation.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

type JsonSchema = Record<string, unknown>;
type Parameter = { in: string; name: string; required?: boolean; schema?: JsonSchema };
type Operation = {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: { media: string; schema: JsonSchema; example: unknown };
  /** The statuses the document lists for the operation. */
  statuses: string[];
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
};

/**
 * Operations the sampler cannot drive, each with the reason. Keep this tiny: an entry is a place where the
 * document says less than the server checks and JSON Schema cannot say it.
 */
const KNOWN_GAPS: Record<string, string> = {
  'POST /flows/api/flow-versions/validate-node':
    'a node\u2019s payload and its branch ids depend on its type (and, for some rules, on the payload); ' +
    'GET /flows/api/flow-versions/node-types publishes both per type. Checking such a node is what this ' +
    'operation is for.',
};

/**
 * A 422 about data rather than shape: a referenced record that does not exist in the team, a record not
 * in the state the operation needs, a feature this server is not configured for.
 */
const REFERENCE_PROBLEM =
  /does not name (one of your|another|a member)|of yours|one of your|of your team|not found|does not exist|is not a member|no such|is not waiting|is not held|is not configured/i;

/**
 * Rules between two fields that JSON Schema cannot state (it compares no values): the sample is mended
 * before it is sent. Keep this list short; every other rule belongs in the schema.
 */
const CROSS_FIELD_RULES: Array<{ rule: string; mend(node: Record<string, unknown>): void }> = [
  {
    rule: 'a schedule time block ends after it starts (min < max)',
    mend(node) {
      if (typeof node.dow !== 'number' || typeof node.min !== 'number' || typeof node.max !== 'number')
        return;
      if (node.min >= node.max) [node.min, node.max] = [Math.min(node.max, 1439), Math.max(node.min, 1) + 0];
      if ((node.min as number) >= (node.max as number)) node.max = (node.min as number) + 1;
    },
  },
  {
    rule:
      'a list is deleted with its contacts or moves them, not both (move_to_list_uuid, delete_contacts): ' +
      'OpenAPI query parameters have no way to relate two parameters',
    mend(node) {
      if (node.move_to_list_uuid !== undefined && node.delete_contacts !== undefined)
        delete node.delete_contacts;
    },
  },
  {
    rule:
      'e-mail fields given together name the same address (a blacklist entry holds one; a contact has two ' +
      'slots): JSON Schema cannot compare two values',
    mend(node) {
      const keys = ['email', 'work_email', 'personal_email'].filter(
        (key) => typeof node[key] === 'string' && (node[key] as string).trim() !== '',
      );
      for (const key of keys.slice(1)) node[key] = node[keys[0] as string];
    },
  },
  {
    rule: 'a period ends no earlier than it starts (period_from <= period_to)',
    mend(node) {
      const { period_from: from, period_to: to } = node;
      if (typeof from === 'string' && typeof to === 'string' && Date.parse(from) > Date.parse(to)) {
        node.period_from = to;
        node.period_to = from;
      }
    },
  },
  {
    rule: 'team statistics cover from..to, to no earlier than from and at most 92 days in all',
    mend(node) {
      const { from, to } = node;
      const day = /^\d{4}-\d\d-\d\d$/;
      if (typeof from !== 'string' || typeof to !== 'string' || !day.test(from) || !day.test(to)) return;
      const start = Date.parse(from);
      if (Date.parse(to) < start || Date.parse(to) - start > 91 * 86_400_000) {
        node.to = new Date(start + 30 * 86_400_000).toISOString().slice(0, 10);
      }
    },
  },
];

function mend(value: unknown): unknown {
  if (Array.isArray(value)) value.forEach(mend);
  else if (value && typeof value === 'object') {
    for (const child of Object.values(value)) mend(child);
    for (const { mend: fix } of CROSS_FIELD_RULES) fix(value as Record<string, unknown>);
  }
  return value;
}

const BATCH = 4;
/** Statuses answered to the samples, so a run that only ever reaches 404s is noticed. */
const tally = new Map<number, number>();
const responseAjv = new Ajv({ strict: false, allErrors: true });
(addFormatsModule as unknown as (ajv: Ajv) => void)(responseAjv);
/** More samples per operation (each with other seeds) for a deeper look: LEADFLOW_SAMPLER_ROUNDS=20. */
const ROUNDS = Number(process.env.LEADFLOW_SAMPLER_ROUNDS ?? 1);

type Random = { pick<T>(values: readonly T[]): T };

/**
 * Our own string formats (http/formats.ts) are sampled from their documented examples; URLs point at a
 * public address literal, so no sample waits for DNS (webhook targets are resolved when saved).
 */
const OUR_FORMATS = {
  ...Object.fromEntries(
    Object.entries(CUSTOM_FORMATS).map(([name, format]) => [
      name,
      (random: Random) => random.pick(format.examples),
    ]),
  ),
  uri: (random: Random) => random.pick(['https://93.184.215.14/hooks', 'http://93.184.215.14:8080/in?x=1']),
};

let ctx: TestContext;
let alice: TestUser;
let operations: Operation[];

function seedOf(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/**
 * A value for `schema`, valid by our own validator (json-schema-faker misses a rule now and then). With
 * `requiredOnly`, only what the schema requires: `{}` for a body that requires nothing.
 */
async function sample(
  schema: JsonSchema,
  seed: string,
  part: 'body' | 'querystring',
  requiredOnly = false,
): Promise<unknown> {
  const validate = validatorCompiler({ schema, httpPart: part } as never) as unknown as ((
    value: unknown,
  ) => boolean) & { errors: never };
  let problem = '';
  for (let attempt = 0; attempt < 16; attempt += 1) {
    // json-schema-faker cannot always leave optionals out (an anyOf naming properties of a closed
    // object): the later attempts then fill a few.
    const only = requiredOnly && attempt < 8;
    const value = await generate(schema as never, {
      seed: seedOf(`${seed}#${attempt}`),
      ...(only
        ? { requiredOnly: true, alwaysFakeOptionals: false, optionalsProbability: 0 }
        : requiredOnly
          ? { alwaysFakeOptionals: false, optionalsProbability: 0.2 }
          : { alwaysFakeOptionals: attempt < 8, optionalsProbability: 0.5 }),
      maxItems: 3,
      maxLength: 40,
      useDefaultValue: false,
      fillProperties: false,
      minDateTime: '2020-01-01T00:00:00Z',
      maxDateTime: '2030-12-31T23:59:59Z',
      formats: OUR_FORMATS,
    }).catch((error: Error) => {
      if (!requiredOnly) throw error;
      problem = error.message;
      return undefined;
    });
    if (value === undefined) continue;
    mend(value);
    const copy = structuredClone(value);
    if (validate(copy)) return value;
    problem = validationFailure(validate.errors, part).message;
  }
  throw new Error(`${seed}: no sample passes the documented schema (${problem})`);
}

/** The path with each parameter filled from its schema (a UUID format gives a UUID, an id an integer). */
async function samplePath(op: Operation, round: number): Promise<string> {
  let path = op.path;
  for (const parameter of op.parameters.filter((p) => p.in === 'path')) {
    const value = await sample(
      { type: 'object', properties: { v: parameter.schema ?? {} }, required: ['v'] },
      `${op.method} ${op.path} path ${parameter.name}${round > 0 ? ` #${round}` : ''}`,
      'querystring',
    );
    path = path.replace(`{${parameter.name}}`, encodeURIComponent(String((value as { v: unknown }).v)));
  }
  return path;
}

async function sampleQuery(op: Operation, round: number, requiredOnly: boolean): Promise<string> {
  const parameters = op.parameters.filter((p) => p.in === 'query');
  if (parameters.length === 0) return '';
  const schema = {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema ?? {}])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
  const seed = `${op.method} ${op.path} query${round > 0 ? ` #${round}` : ''}`;
  const value = (await sample(schema, seed, 'querystring', requiredOnly)) as object;
  const text = qs.stringify(value, { arrayFormat: 'brackets', encodeValuesOnly: true });
  return text ? `?${text}` : '';
}

function isReferenceProblem(body: { error?: { data?: Record<string, unknown> }; message?: string }) {
  const messages = [body.message, ...Object.values(body.error?.data ?? {}).flat()].map(String);
  return messages.every((message) => REFERENCE_PROBLEM.test(message));
}

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Parameter[];
          responses: Record<string, unknown>;
          requestBody?: { content: Record<string, { schema: JsonSchema; example?: unknown }> };
        }
      >
    >;
  };
  operations = Object.entries(document.paths)
    .filter(([path]) => /^\/[a-z-]+\/(c1\/)?api\//.test(path))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => {
        const [media, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
        return {
          method: method.toUpperCase(),
          path,
          parameters: op.parameters ?? [],
          statuses: Object.keys(op.responses),
          responses: op.responses as Operation['responses'],
          ...(media && content ? { body: { media, schema: content.schema, example: content.example } } : {}),
        };
      }),
    );
});
afterAll(() => ctx.close());

/**
 * A multipart body from a sampled object: file fields (contentMediaType) carry the documented example's
 * content - random bytes are no CSV or image - and the other fields their sampled values.
 */
function multipart(schema: JsonSchema, value: Record<string, unknown>, example: unknown, whole = false) {
  const boundary = 'sampler-boundary-7f3a';
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  // A JSON text field holds a document of its own that the sampler cannot write; left out unless required.
  const entries = Object.entries(value).filter(
    ([key]) => whole || required.has(key) || properties[key]?.contentMediaType !== 'application/json',
  );
  const parts = entries.map(([key, field]) => {
    const media = properties[key]?.contentMediaType;
    // A JSON part travels as a field with its media type (no file name), as OpenAPI's default encoding has it.
    if (media === 'application/json') {
      return `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\nContent-Type: ${media}\r\n\r\n${String(field)}\r\n`;
    }
    if (typeof media === 'string') {
      const content = String((example as Record<string, unknown> | undefined)?.[key] ?? field);
      const name = `sample.${media.split('/')[1] ?? 'bin'}`;
      return `--${boundary}\r\nContent-Disposition: form-data; name="${key}"; filename="${name}"\r\nContent-Type: ${media}\r\n\r\n${content}\r\n`;
    }
    return `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${String(field)}\r\n`;
  });
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function run(op: Operation, round: number, requiredOnly = false): Promise<string | undefined> {
  const name = `${op.method} ${op.path}${round > 0 ? ` #${round}` : ''}${requiredOnly ? ' (required only)' : ''}`;
  const url = `${await samplePath(op, round)}${await sampleQuery(op, round, requiredOnly)}`;
  let payload: unknown;
  let headers: Record<string, string> = {};
  if (op.body?.media === 'application/json') {
    payload = await sample(op.body.schema, `${name} body`, 'body', requiredOnly);
  } else if (op.body?.media === 'multipart/form-data') {
    const value = (await sample(op.body.schema, `${name} body`, 'body', requiredOnly)) as Record<
      string,
      unknown
    >;
    ({ payload, headers } = multipart(op.body.schema, value, op.body.example));
  } else if (op.body) {
    return `${name}: no sampler for ${op.body.media} bodies yet`;
  }
  const res = await ctx.request(alice, {
    method: op.method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as string }),
  });
  tally.set(res.statusCode, (tally.get(res.statusCode) ?? 0) + 1);
  const describe = () =>
    `${name} -> ${res.statusCode} ${res.body.slice(0, 1200)}\n    sent ${url} ${JSON.stringify(payload)?.slice(0, 400)}`;
  if (res.statusCode >= 500) return describe();
  if (!op.statuses.includes(String(res.statusCode))) return `undocumented status: ${describe()}`;
  // A success answer has the documented shape (what generated clients parse).
  const documented = op.responses[String(res.statusCode)]?.content?.['application/json']?.schema;
  if (documented && res.statusCode < 300) {
    const check = responseAjv.compile(documented);
    if (!check(res.json())) {
      return `answer off its documented schema: ${name} ${JSON.stringify(check.errors?.slice(0, 3))}`;
    }
  }
  if ([400, 413, 414, 415].includes(res.statusCode)) return describe();
  if (res.statusCode === 422 && !isReferenceProblem(res.json())) return describe();
  return undefined;
}

/** Whether leaving out what is optional changes the request: a body, or an optional query parameter. */
function hasOptionalParts(op: Operation): boolean {
  return op.body !== undefined || op.parameters.some((p) => p.in === 'query' && !p.required);
}

describe('requests generated from the OpenAPI document', () => {
  it('covers every API operation', () => {
    expect(operations.length).toBeGreaterThan(150);
    for (const gap of Object.keys(KNOWN_GAPS)) {
      expect(
        operations.some((op) => `${op.method} ${op.path}` === gap),
        `stale KNOWN_GAPS entry ${gap}`,
      ).toBe(true);
    }
  });

  it('take every upload example as the document shows it, JSON part included', async () => {
    const uploads = operations.filter(
      (op) => op.body?.media === 'multipart/form-data' && op.body.example && API_PATH.test(op.path),
    );
    expect(uploads.length).toBeGreaterThan(1);
    for (const op of uploads) {
      const example = op.body?.example as Record<string, unknown>;
      const { payload, headers } = multipart(op.body?.schema ?? {}, example, example, true);
      const res = await ctx.request(alice, {
        method: op.method as 'POST',
        url: await samplePath(op, 0),
        headers,
        payload,
      });
      expect(res.statusCode, `${op.method} ${op.path}: ${res.body}`).toBeLessThan(300);
    }
  });

  it('are never refused for their shape', async () => {
    const refused: string[] = [];
    const todo = operations
      .filter((op) => !KNOWN_GAPS[`${op.method} ${op.path}`])
      .flatMap((op) => [
        ...Array.from({ length: ROUNDS }, (_, round) => ({ op, round, requiredOnly: false })),
        // Only what is required, too: `{}` for a body that requires nothing must be taken as the document
        // says (an "at least one of" rule the document misses shows here).
        ...(hasOptionalParts(op) ? [{ op, round: 0, requiredOnly: true }] : []),
      ]);
    for (let start = 0; start < todo.length; start += BATCH) {
      const results = await Promise.all(
        todo
          .slice(start, start + BATCH)
          .map(({ op, round, requiredOnly }) =>
            run(op, round, requiredOnly).catch((error: Error) => `${op.method} ${op.path}: ${error.message}`),
          ),
      );
      for (const result of results) if (result) refused.push(result);
    }
    expect(refused).toEqual([]);
    const succeeded = [...tally].filter(([status]) => status < 300).reduce((sum, [, n]) => sum + n, 0);
    expect(succeeded).toBeGreaterThan(40);
  }, 120_000);
});
