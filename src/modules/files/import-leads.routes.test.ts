import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
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
    list = await createList(ctx, user, 'Messy');
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

    const contacts = await contactsOf(ctx, user, { list_uuid: list });
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
    expect(await contactsOf(ctx, user, { email: ['carl@spam.co', 'eve@umbrella.com'] })).toEqual([]);
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
    const names = (await contactsOf(ctx, user, { list_uuid: list })).map((c) => c.name);
    expect(names).toHaveLength(5);
    expect(names.filter((name) => name === 'Frank Fox')).toHaveLength(2);
  });
});

describe('dedup agrees with the upsert endpoint', () => {
  it('upserting the imported people finds every one of them', async () => {
    const user = await ctx.createUser();
    const list = await createList(ctx, user, 'Quoted');
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
    expect(await contactsOf(ctx, user, { list_uuid: list })).toHaveLength(3);
  });
});

describe('matched contacts', () => {
  it('are updated by default, left alone with update_if_exists false, moved with move_to_list', async () => {
    const user = await ctx.createUser();
    const first = await createList(ctx, user, 'First');
    const second = await createList(ctx, user, 'Second');
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
    expect((await contactsOf(ctx, user, { email: 'sam@x.io' }))[0]).toMatchObject({
      position: 'Dev',
      list_uuid: first,
    });

    const updated = await importFile(ctx, user, 'email,position\nsam@x.io,CTO\nkim@x.io,QA\n', {
      columns,
      list_uuid: second,
    });
    expect(updated).toMatchObject({ updated_count: 1, duplicate_count: 1 });
    expect((await contactsOf(ctx, user, { email: 'sam@x.io' }))[0]).toMatchObject({
      position: 'CTO',
      list_uuid: first,
    });

    const moved = await importFile(ctx, user, 'email\nsam@x.io\n', {
      columns: [columns[0]],
      list_uuid: second,
      move_to_list: true,
    });
    expect(moved).toMatchObject({ updated_count: 1 });
    expect((await contactsOf(ctx, user, { email: 'sam@x.io' }))[0]).toMatchObject({ list_uuid: second });
  });

  it('a later row of the file updates the contact an earlier row created', async () => {
    const user = await ctx.createUser();
    const list = await createList(ctx, user, 'Chain');
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
    const [ann] = await contactsOf(ctx, user, { list_uuid: list });
    expect(ann).toMatchObject({ work_email: 'ann@x.io', linkedin: 'ann-x', position: 'Lead' });
  });
});
