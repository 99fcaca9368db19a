// The contact field catalog against everything that should agree with it: the table as PostgreSQL has
// it, the record the API answers, webhook payloads (sample and real), CSV export headers and import
// targets, the filter and template variables. A column added without its catalog line - or a catalog
// line a consumer misses - fails here.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { EVENT_CATALOG, type EventName } from '../events/events.catalog.js';
import { ContactSnapshot } from '../events/events.schemas.js';
import { contactSnapshots } from '../events/events.snapshot.js';
import { standardColumns } from '../files/export-columns.js';
import { importTargets } from '../files/import-mapping.js';
import { IDENTIFIER_FIELDS } from '../leads/lead-fields.js';
import { LEAD_FILTER_KEYS } from '../leads/leads.filter.js';
import { CONTACT_VARIABLES } from '../templates/template-variables.js';
import { samplePayload } from '../webhooks/sample-payloads.js';
import { IDENTIFYING_INPUTS, LEAD_CATALOG, SERVER_ONLY_COLUMNS } from './lead-catalog.js';

let ctx: TestContext;
let alice: TestUser;
let lead: Record<string, unknown>;

const keys = (pick: (field: (typeof LEAD_CATALOG)[number]) => unknown) =>
  LEAD_CATALOG.filter(pick).map((field) => field.key);

/** information_schema's name of each catalog SQL type. */
const INFORMATION_SCHEMA_TYPES: Record<string, string> = {
  text: 'text',
  bigint: 'bigint',
  integer: 'integer',
  smallint: 'smallint',
  numeric: 'numeric',
  boolean: 'boolean',
  uuid: 'uuid',
  jsonb: 'jsonb',
  timestamptz: 'timestamp with time zone',
  'text[]': '_text',
  'uuid[]': '_uuid',
};

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  const list = (await makeList(ctx.db, alice.teamId)).uuid;
  const created = await ctx.request(alice, {
    method: 'POST',
    url: '/leads/api/leads',
    payload: { list_uuid: list, leads: [{ first_name: 'Ada', email: 'ada@example.com' }] },
  });
  expect(created.statusCode).toBe(200);
  lead = created.json()[0];
});
afterAll(() => ctx.close());

describe('the contact field catalog', () => {
  it('has every column of the leads table, with its type, and nothing else stored', async () => {
    const { rows } = await sql<{ column_name: string; data_type: string; udt_name: string }>`
      select column_name, data_type, udt_name from information_schema.columns
      where table_schema = current_schema() and table_name = 'leads'
    `.execute(ctx.db);
    const table = new Map(
      rows.map((row) => [row.column_name, row.data_type === 'ARRAY' ? row.udt_name : row.data_type]),
    );
    const stored = LEAD_CATALOG.filter((field) => field.owner === 'client' || field.owner === 'server');
    const missing = [...table.keys()].filter(
      (column) =>
        !stored.some((field) => field.key === column) &&
        !(SERVER_ONLY_COLUMNS as readonly string[]).includes(column),
    );
    expect(missing, 'columns of leads with no catalog entry (src/modules/record-fields)').toEqual([]);
    const types = Object.fromEntries(stored.map((field) => [field.key, table.get(field.key)]));
    expect(types).toEqual(
      Object.fromEntries(stored.map((field) => [field.key, INFORMATION_SCHEMA_TYPES[field.sql!]])),
    );
  });

  it('is the record the API answers, key for key and in order', async () => {
    const res = await ctx.request(alice, {
      method: 'GET',
      url: `/leads/api/leads/${lead.uuid}?disable_aggregation=true`,
    });
    expect(Object.keys(res.json())).toEqual(keys((field) => field.schema));
    expect(Object.keys(lead)).toEqual([...keys((field) => field.schema), 'create_status']);
  });

  it('gives webhook payloads, the sample and the real one, the same keys in the same order', async () => {
    const name = (Object.keys(EVENT_CATALOG) as EventName[]).find((event) => EVENT_CATALOG[event].contact)!;
    const sample = (await samplePayload(ctx.db, alice.teamId, name)).contact as Record<string, unknown>;
    const real = (await contactSnapshots(alice.teamId, sql`l.uuid = ${lead.uuid}`).execute(ctx.db)).rows[0]!;
    expect(Object.keys(real.contact)).toEqual(Object.keys(sample));
    expect(Object.keys(sample)).toEqual(expect.arrayContaining(keys((field) => field.webhook)));
    // The payload schema (OpenAPI and the sample endpoints' serializer) names every key, in order.
    expect(Object.keys(ContactSnapshot.properties)).toEqual(Object.keys(sample));
    const fromSample = await samplePayload(ctx.db, alice.teamId, name, lead.uuid as string);
    expect(fromSample.contact).toEqual(real.contact);
  });

  it('names every exported field in the export header, every importable one among the import targets', () => {
    const headers = standardColumns('contact_export_csv').map((column) => column.header);
    expect(headers).toEqual(expect.arrayContaining(keys((field) => field.export)));
    const targets = importTargets('leads');
    for (const field of LEAD_CATALOG.filter((entry) => entry.import)) {
      for (const name of [field.key, ...(field.import!.aliases ?? [])]) {
        expect(targets.find((target) => target.name === name)?.field, name).toBe(field.key);
      }
    }
  });

  it('feeds the filter, the template variables and the identifier lists', () => {
    expect(LEAD_FILTER_KEYS).toEqual(expect.arrayContaining(keys((field) => field.filter)));
    expect(CONTACT_VARIABLES).toEqual(expect.arrayContaining(keys((field) => field.template)));
    expect(IDENTIFYING_INPUTS).toEqual(expect.arrayContaining([...IDENTIFIER_FIELDS]));
    expect(IDENTIFIER_FIELDS).toEqual([
      'ln_member_id',
      'ln_id',
      'sn_id',
      'linkedin',
      'work_email',
      'personal_email',
    ]);
  });
});
