import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import {
  expectAccounted,
  fixture,
  importFile,
  startImport,
  tempFilesDir,
  uploadOk,
} from './files.test-support.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ config: { filesDir: await tempFilesDir() } });
  await ctx.startWorkers();
});
afterAll(() => ctx.close());

const COLUMNS = [
  { source: 'Company Name', target: 'name' },
  { source: 'Website', target: 'website' },
  { source: 'LinkedIn', target: 'linkedin_url' },
  { source: 'Industry', target: 'industry' },
  { source: 'Employees', target: 'employees_on_linkedin' },
  { source: 'Deal Size', target: 'deal_size' },
  { source: 'Tags', target: 'tags' },
];

async function companiesOf(user: TestUser) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/leads/api/companies/list',
    payload: { limit: 100, order_field: 'created_at', order_type: 'asc' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<Record<string, unknown>>;
}

describe('importing companies', () => {
  let user: TestUser;
  let list: string;
  let other: string;
  beforeAll(async () => {
    user = await ctx.createUser();
    list = (await makeList(ctx.db, user.teamId, 'Accounts')).uuid;
    other = (await makeList(ctx.db, user.teamId, 'More accounts')).uuid;
    const entry = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/companies-blacklist',
      payload: { domain: 'spam-inc.com' },
    });
    expect(entry.statusCode).toBe(201);
  });

  it('creates companies, merges rows that are one company, skips the blacklist and records bad rows', async () => {
    // A contact waiting for its company: linked by its e-mail domain once Globex exists.
    const contacts = await makeList(ctx.db, user.teamId, 'People');
    const [waiting] = await makeLeads(ctx.db, user.teamId, contacts.uuid, [
      { first_name: 'Gil', work_email: 'gil@globex.io' },
    ]);
    const record = await importFile(
      ctx,
      user,
      fixture('companies.csv'),
      { columns: COLUMNS, list_uuids: [list], options: { tags: ['imported'] } },
      'companies',
    );
    expect(record).toMatchObject({
      status: 'done',
      type: 'csv_companies',
      list_uuids: [list],
      total_rows: 6,
      created_count: 3,
      duplicate_count: 1,
      blacklisted_count: 1,
      error_count: 1,
      updated_count: 0,
    });
    expectAccounted(record);
    expect(record.errors).toEqual([
      {
        row: 7,
        reason: expect.stringContaining('column "Employees" (employees_on_linkedin) must be a whole number'),
      },
    ]);
    const companies = await companiesOf(user);
    expect(companies.map((c) => c.name)).toEqual(['Acme Corporation', 'Globex', 'Broken']);
    const [acme, globex] = companies;
    // The second Acme row (same domain) merged into the first: its values win, identifiers are kept.
    expect(acme).toMatchObject({
      domain: 'acme.com',
      linkedin: 'acme-corp',
      industry: 'Manufacturing',
      employees_on_linkedin: 500,
      deal_size: 1000,
      lists: [list],
    });
    expect(globex).toMatchObject({ domain: 'globex.io', employees_on_linkedin: 1200 });
    const tags = (await ctx.request(user, { method: 'GET', url: '/leads/api/tags' })).json().data;
    const names = new Map(tags.map((t: { uuid: string; name: string }) => [t.uuid, t.name]));
    expect((acme!.tags as string[]).map((uuid) => names.get(uuid)).sort()).toEqual(['customer', 'imported']);
    const linked = await ctx.request(user, { method: 'GET', url: `/leads/api/leads/${waiting!.uuid}` });
    expect(linked.json().company_uuid).toBe(globex!.uuid);
  });

  it('updates the companies on re-import, or leaves them with update_if_exists false', async () => {
    const kept = await importFile(
      ctx,
      user,
      'Company Name,Website,Industry\nGlobex,https://globex.io,Utilities\n',
      {
        columns: COLUMNS.slice(0, 1).concat(COLUMNS[1]!, COLUMNS[3]!),
        update_if_exists: false,
        list_uuid: other,
      },
      'companies',
    );
    expect(kept).toMatchObject({ duplicate_count: 1, updated_count: 0, created_count: 0 });
    const again = await importFile(
      ctx,
      user,
      fixture('companies.csv'),
      { columns: COLUMNS, list_uuids: [other] },
      'companies',
    );
    expect(again).toMatchObject({
      created_count: 0,
      updated_count: 3,
      duplicate_count: 1,
      blacklisted_count: 1,
      error_count: 1,
    });
    const companies = await companiesOf(user);
    expect(companies).toHaveLength(3);
    expect(companies[1]).toMatchObject({ name: 'Globex', industry: 'Energy', lists: [list, other] });
  });

  it('fills company custom fields and refuses mapping mistakes', async () => {
    const field = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/custom-fields',
      payload: { name: 'tier', object: 'company' },
    });
    expect(field.statusCode).toBe(201);
    const record = await importFile(
      ctx,
      user,
      'name,domain,tier\nHooli,hooli.com,gold\n',
      { column_mapping: { name: 'company_name', domain: 'domain', tier: 'custom_fields.tier' } },
      'companies',
    );
    expect(record).toMatchObject({ created_count: 1, list_uuids: [] });
    const hooli = (await companiesOf(user)).find((c) => c.name === 'Hooli');
    expect(hooli).toMatchObject({ domain: 'hooli.com', custom_fields: { tier: 'gold' } });

    const upload = await uploadOk(ctx, user, 'name,industry\nX,Y\n');
    const unknown = await startImport(
      ctx,
      user,
      upload.uuid,
      { columns: [{ source: 'name', target: 'position' }] },
      'companies',
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toContain('"position" is not a company field');
    expect(unknown.json().message).toContain('employees_on_linkedin');
    const noKey = await startImport(
      ctx,
      user,
      upload.uuid,
      { columns: [{ source: 'industry', target: 'industry' }] },
      'companies',
    );
    expect(noKey.statusCode).toBe(422);
    expect(noKey.json().message).toContain('identifies a company');
    const contactField = await startImport(
      ctx,
      user,
      upload.uuid,
      {
        columns: [
          { source: 'name', target: 'name' },
          { source: 'industry', target: 'custom_fields.score' },
        ],
      },
      'companies',
    );
    expect(contactField.statusCode).toBe(422);
    expect(contactField.json().error.data).toHaveProperty(['columns.1.target']);
    const foreignList = await startImport(
      ctx,
      user,
      upload.uuid,
      {
        columns: [{ source: 'name', target: 'name' }],
        list_uuids: [(await makeList(ctx.db, (await ctx.createUser()).teamId)).uuid],
      },
      'companies',
    );
    expect(foreignList.statusCode).toBe(422);
    expect(foreignList.json().error.data).toHaveProperty('list_uuids');
  });
});
