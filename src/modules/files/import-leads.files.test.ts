// CSV imports of contacts: a large file in chunks, encodings, and rows that look alike (the messy file,
// dedup and matched contacts are in import-leads.routes.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataSource } from '../../../test/factories.js';
import { createTestContext, type TestContext } from '../../../test/harness.js';
import {
  contactsOf,
  createList,
  expectAccounted,
  fixture,
  importFile,
  tempFilesDir,
} from './files.test-support.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ config: { filesDir: await tempFilesDir() } });
  await ctx.startWorkers();
});
afterAll(() => ctx.close());

describe('a 10,000-row file with custom fields and tags', () => {
  it('goes in over several chunks with every row accounted for', async () => {
    const user = await ctx.createUser();
    const list = await createList(ctx, user, 'Generated');
    const field = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/custom-fields',
      payload: { name: 'score', object: 'lead', type: 'number' },
    });
    expect(field.statusCode, field.body).toBe(201);
    const record = await importFile(ctx, user, fixture('contacts-10000.csv'), {
      columns: [
        { source: 'first_name', target: 'first_name' },
        { source: 'last_name', target: 'last_name' },
        { source: 'email', target: 'email' },
        { source: 'company', target: 'company_name' },
        { source: 'title', target: 'job_title' },
        { source: 'linkedin', target: 'linkedin_url' },
        { source: 'tags', target: 'tags' },
        { source: 'score', target: 'custom_fields.score' },
      ],
      list_uuid: list,
      tags: ['imported'],
    });
    expect(record).toMatchObject({
      status: 'done',
      total_rows: 10_000,
      created_count: 9_970,
      duplicate_count: 20,
      error_count: 10,
      blacklisted_count: 0,
    });
    expectAccounted(record);
    expect(record.errors.map((e: { row: number }) => e.row)).toEqual([
      8, 1008, 2008, 3008, 4008, 5008, 6008, 7008, 8008, 9008,
    ]);
    const count = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/leads/count',
      payload: { filter: { list_uuid: list } },
    });
    expect(count.json().total).toBe(9_970);
    const [person] = await contactsOf(ctx, user, { email: 'person4210@example10.com' });
    expect(person).toMatchObject({
      name: 'Person4210 Test4210',
      position: 'Title 3',
      linkedin: 'person-4210',
      custom_fields: { score: 10 },
    });
    const tagNames = (await ctx.request(user, { method: 'GET', url: '/leads/api/tags' })).json().data;
    const byUuid = new Map(tagNames.map((t: { uuid: string; name: string }) => [t.uuid, t.name]));
    expect((person!.tags as string[]).map((uuid) => byUuid.get(uuid)).sort()).toEqual([
      'generated',
      'imported',
      'tenth',
    ]);
  });
});

describe('encodings', () => {
  it('stores Windows-1252 and UTF-16 names as the text they are', async () => {
    const user = await ctx.createUser();
    const list = await createList(ctx, user, 'Encodings');
    await importFile(ctx, user, fixture('contacts-windows-1252.csv'), {
      columns: [
        { source: 'Name', target: 'name' },
        { source: 'Company', target: 'company_name' },
        { source: 'Email', target: 'email' },
        { source: 'Title', target: 'position' },
      ],
      list_uuid: list,
    });
    await importFile(ctx, user, fixture('contacts-bom-semicolon.csv'), {
      columns: [
        { source: 'Vorname', target: 'first_name' },
        { source: 'Nachname', target: 'last_name' },
        { source: 'E-Mail', target: 'email' },
        { source: 'Firma', target: 'company_name' },
      ],
      list_uuid: list,
    });
    await importFile(ctx, user, fixture('contacts-utf16.csv'), {
      columns: [
        { source: 'First Name', target: 'first_name' },
        { source: 'Email', target: 'email' },
        { source: 'Company', target: 'company_name' },
      ],
      list_uuid: list,
    });
    const names = (await contactsOf(ctx, user, { list_uuid: list })).map(
      (c) => `${c.name}|${c.company_name}`,
    );
    expect(names).toEqual([
      'François Lefèvre|Société Générale',
      'Søren Østergård|Ørsted A/S',
      'José Núñez|Telefónica',
      'Jürgen Müller|Müller AG',
      'Anna Schmidt|Schmidt; Söhne',
      'Mei|王氏集团',
      'Ivan|Петров и сыновья',
    ]);
  });
});

describe('rows that look alike', () => {
  it('tells namesakes apart, refuses identifier clashes and links companies by domain', async () => {
    const user = await ctx.createUser();
    const list = await createList(ctx, user, 'Alike');
    const company = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/companies',
      payload: { companies: [{ name: 'Acme', domain: 'acme.io' }] },
    });
    const acme = company.json()[0].uuid;
    const columns = [
      { source: 'name', target: 'name' },
      { source: 'company', target: 'company_name' },
      { source: 'email', target: 'email' },
      { source: 'linkedin', target: 'linkedin' },
      { source: 'domain', target: 'domain' },
    ];
    const dataSource = (await makeDataSource(ctx.db, user.teamId)).uuid;
    const first = await importFile(
      ctx,
      user,
      'name,company,email,linkedin,domain\nAnn Lee,Acme,ann@acme.io,ann-lee,acme.io\nBen Ode,Beta,ben@beta.io,ben-ode,\n',
      { columns, list_uuid: list, data_source_uuid: dataSource },
    );
    expect(first).toMatchObject({ created_count: 2, options: { data_source_uuid: dataSource } });
    const [ann] = await contactsOf(ctx, user, { email: 'ann@acme.io' });
    expect(ann).toMatchObject({ company_uuid: acme, data_source_uuid: dataSource });

    const second = await importFile(
      ctx,
      user,
      [
        'name,company,email,linkedin,domain',
        // Same name and company, another e-mail: a different person.
        'Ann Lee,Acme,ann.lee@other.io,,',
        // Ben's LinkedIn with Ann's e-mail: matches Ben, but the e-mail belongs to Ann.
        'Ben Ode,Beta,ann@acme.io,ben-ode,',
        // Ben again with a new e-mail and the company's domain: updated and linked.
        'Ben Ode,Beta,ben@acme.io,ben-ode,acme.io',
      ].join('\n'),
      { columns, list_uuid: list },
    );
    expect(second).toMatchObject({ created_count: 1, updated_count: 1, error_count: 1, duplicate_count: 0 });
    expect(second.errors).toEqual([
      { row: 3, reason: expect.stringContaining('work_email belongs to another contact') },
    ]);
    expect(await contactsOf(ctx, user, { name: 'Ann Lee' })).toHaveLength(2);
    const [ben] = await contactsOf(ctx, user, { linkedin: 'ben-ode' });
    expect(ben).toMatchObject({
      work_email: 'ben@acme.io',
      company_uuid: acme,
      data_source_uuid: dataSource,
    });
  });
});
