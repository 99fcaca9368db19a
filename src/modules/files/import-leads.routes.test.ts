import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataSource } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { expectAccounted, fixture, importFile, tempFilesDir } from './files.test-support.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ config: { filesDir: await tempFilesDir() } });
  await ctx.startWorkers();
});
afterAll(() => ctx.close());

async function createList(user: TestUser, name: string): Promise<string> {
  const res = await ctx.request(user, { method: 'POST', url: '/leads/api/lists', payload: { name } });
  return res.json().uuid;
}

async function contactsOf(user: TestUser, filter: Record<string, unknown>) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/leads/api/leads/search',
    payload: { filter, limit: 1000, order_field: 'created_at', order_type: 'asc' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<Record<string, unknown>>;
}

const MESSY_COLUMNS = [
  { source: 'Name', target: 'name' },
  { source: 'Company', target: 'company_name' },
  { source: 'Email', target: 'work_email' },
  { source: 'Email (2)', target: 'personal_email' },
  { source: 'Column 5', target: null },
  { source: 'Tags', target: 'tags' },
  { source: 'Connections', target: 'connections_number' },
];

describe('importing a messy contacts file', () => {
  let user: TestUser;
  let list: string;
  beforeAll(async () => {
    user = await ctx.createUser();
    list = await createList(user, 'Messy');
    const entry = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { email: 'carl@spam.co' },
    });
    expect(entry.statusCode).toBe(201);
  });

  it('imports the good rows and accounts for every other one', async () => {
    const record = await importFile(ctx, user, fixture('contacts-messy.csv'), {
      columns: MESSY_COLUMNS,
      list_uuid: list,
    });
    expect(record).toMatchObject({
      status: 'done',
      type: 'csv_leads',
      list_uuid: list,
      total_rows: 8,
      created_count: 4,
      undeduplicated_count: 1,
      duplicate_count: 1,
      blacklisted_count: 1,
      error_count: 2,
      updated_count: 0,
      columns: MESSY_COLUMNS,
      options: { update_if_exists: true, move_to_list: false, skip_first_row: true, tags: [] },
    });
    expectAccounted(record);
    expect(record.errors.map((e: { row: number }) => e.row)).toEqual([7, 8]);
    expect(record.errors[0].reason).toContain('column "Email" (work_email)');
    expect(record.errors[0].reason).toContain('not-an-email');
    expect(record.errors[1].reason).toContain(
      'column "Connections" (connections_number) must be a whole number',
    );
    // Frank Fox (row 11) has only a name: created, like POST /leads/api/leads creates him, and the
    // record says that such rows cannot be deduplicated.
    expect(record.warnings).toEqual([
      '1 row(s) had only a name (no LinkedIn reference, e-mail or company_name): they were created without ' +
        'deduplication, and importing them again creates them again.',
    ]);
    expect(record.started_at).toBeTruthy();
    expect(record.finished_at).toBeTruthy();

    const contacts = await contactsOf(user, { list_uuid: list });
    expect(contacts.map((c) => c.name)).toEqual([
      'Alice Adams',
      'Bob Brown',
      '=HYPERLINK("http://evil")',
      'Frank Fox',
    ]);
    const [alicia] = contacts;
    expect(alicia).toMatchObject({
      company_name: 'Acme',
      work_email: 'alice@acme.io',
      personal_email: 'alice.private@gmail.com',
      connections_number: 500,
      list_uuid: list,
    });
    const tags = await ctx.request(user, { method: 'GET', url: '/leads/api/tags?filter[q]=' });
    const tagNames = new Map(tags.json().data.map((t: { uuid: string; name: string }) => [t.uuid, t.name]));
    expect((alicia!.tags as string[]).map((uuid) => tagNames.get(uuid))).toEqual(['vip', 'west']);
    // Blacklisted and failed rows left nothing behind.
    expect(await contactsOf(user, { email: ['carl@spam.co', 'eve@umbrella.com'] })).toEqual([]);
  });

  it('imports the same file again creating only the rows nothing can deduplicate', async () => {
    const record = await importFile(ctx, user, fixture('contacts-messy.csv'), {
      columns: MESSY_COLUMNS,
      list_uuid: list,
    });
    expect(record).toMatchObject({
      created_count: 1,
      undeduplicated_count: 1,
      updated_count: 0,
      duplicate_count: 4,
      blacklisted_count: 1,
      error_count: 2,
    });
    const names = (await contactsOf(user, { list_uuid: list })).map((c) => c.name);
    expect(names).toHaveLength(5);
    expect(names.filter((name) => name === 'Frank Fox')).toHaveLength(2);
  });
});

describe('dedup agrees with the upsert endpoint', () => {
  it('upserting the imported people finds every one of them', async () => {
    const user = await ctx.createUser();
    const list = await createList(user, 'Quoted');
    const record = await importFile(ctx, user, fixture('contacts-quoted.csv'), {
      column_mapping: {
        first_name: 'first_name',
        last_name: 'last_name',
        email: 'email',
        company: 'company_name',
        about: 'about',
        linkedin: 'linkedin_id',
      },
      list_uuid: list,
    });
    expect(record).toMatchObject({ created_count: 3, error_count: 0 });
    const people = [
      {
        first_name: 'Jane',
        last_name: 'Smith',
        email: 'jane@acme.io',
        company_name: 'Acme, Inc.',
        linkedin_id: 'https://www.linkedin.com/in/jane-smith-q1',
        about: 'Loves "clean" data.\nSecond line of about.',
      },
      {
        first_name: 'John',
        last_name: 'Doe',
        email: 'john@globex.com',
        company_name: 'Globex',
        about: 'Multi\nline\nabout',
      },
      {
        first_name: 'Zoë',
        last_name: 'Ärger',
        email: 'zoe@umlaut.de',
        company_name: 'Ümlaut GmbH',
        about: 'Café owner',
        linkedin_id: 'zoe-aerger',
      },
    ];
    for (const lead of people) {
      const res = await ctx.request(user, {
        method: 'POST',
        url: '/leads/api/leads/upsert',
        payload: { lead, list_uuid: list },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().upsert_status, lead.email).toBe('unchanged');
    }
    const changed = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/leads/upsert',
      payload: { lead: { linkedin_id: 'zoe-aerger', position: 'Owner' }, list_uuid: list },
    });
    expect(changed.json().upsert_status).toBe('updated');
    expect(await contactsOf(user, { list_uuid: list })).toHaveLength(3);
  });
});

describe('matched contacts', () => {
  it('are updated by default, left alone with update_if_exists false, moved with move_to_list', async () => {
    const user = await ctx.createUser();
    const first = await createList(user, 'First');
    const second = await createList(user, 'Second');
    const columns = [
      { source: 'email', target: 'email' },
      { source: 'position', target: 'position' },
    ];
    await importFile(ctx, user, 'email,position\nsam@x.io,Dev\nkim@x.io,QA\n', { columns, list_uuid: first });
    const kept = await importFile(ctx, user, 'email,position\nsam@x.io,CTO\n', {
      columns,
      list_uuid: second,
      options: { update_if_exists: false },
    });
    expect(kept).toMatchObject({ duplicate_count: 1, updated_count: 0, created_count: 0 });
    expect((await contactsOf(user, { email: 'sam@x.io' }))[0]).toMatchObject({
      position: 'Dev',
      list_uuid: first,
    });

    const updated = await importFile(ctx, user, 'email,position\nsam@x.io,CTO\nkim@x.io,QA\n', {
      columns,
      list_uuid: second,
    });
    expect(updated).toMatchObject({ updated_count: 1, duplicate_count: 1 });
    expect((await contactsOf(user, { email: 'sam@x.io' }))[0]).toMatchObject({
      position: 'CTO',
      list_uuid: first,
    });

    const moved = await importFile(ctx, user, 'email\nsam@x.io\n', {
      columns: [columns[0]],
      list_uuid: second,
      move_to_list: true,
    });
    expect(moved).toMatchObject({ updated_count: 1 });
    expect((await contactsOf(user, { email: 'sam@x.io' }))[0]).toMatchObject({ list_uuid: second });
  });

  it('a later row of the file updates the contact an earlier row created', async () => {
    const user = await ctx.createUser();
    const list = await createList(user, 'Chain');
    const record = await importFile(
      ctx,
      user,
      'email,linkedin,position\nann@x.io,,Dev\nann@x.io,ann-x,\n,https://linkedin.com/in/ann-x,Lead\nann@x.io,ann-x,Lead\n',
      {
        columns: [
          { source: 'email', target: 'email' },
          { source: 'linkedin', target: 'linkedin' },
          { source: 'position', target: 'position' },
        ],
        list_uuid: list,
      },
    );
    expect(record).toMatchObject({ created_count: 1, updated_count: 2, duplicate_count: 1, error_count: 0 });
    const [ann] = await contactsOf(user, { list_uuid: list });
    expect(ann).toMatchObject({ work_email: 'ann@x.io', linkedin: 'ann-x', position: 'Lead' });
  });
});

describe('a 10,000-row file with custom fields and tags', () => {
  it('goes in over several chunks with every row accounted for', async () => {
    const user = await ctx.createUser();
    const list = await createList(user, 'Generated');
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
    const [person] = await contactsOf(user, { email: 'person4210@example10.com' });
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
    const list = await createList(user, 'Encodings');
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
    const names = (await contactsOf(user, { list_uuid: list })).map((c) => `${c.name}|${c.company_name}`);
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
    const list = await createList(user, 'Alike');
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
    const [ann] = await contactsOf(user, { email: 'ann@acme.io' });
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
    expect(await contactsOf(user, { name: 'Ann Lee' })).toHaveLength(2);
    const [ben] = await contactsOf(user, { linkedin: 'ben-ode' });
    expect(ben).toMatchObject({
      work_email: 'ben@acme.io',
      company_uuid: acme,
      data_source_uuid: dataSource,
    });
  });
});
