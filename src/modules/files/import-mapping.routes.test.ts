import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { finishedImport, fixture, startImport, tempFilesDir, uploadOk } from './files.test-support.js';

let ctx: TestContext;
let alice: TestUser;
let filesDir: string;

beforeAll(async () => {
  filesDir = await tempFilesDir();
  ctx = await createTestContext({ config: { filesDir } });
  alice = await ctx.createUser();
  await ctx.startWorkers();
});
afterAll(() => ctx.close());

async function createList(user: TestUser, name: string): Promise<string> {
  const res = await ctx.request(user, { method: 'POST', url: '/leads/api/lists', payload: { name } });
  return res.json().uuid;
}

describe('mapping mistakes are 422s that name the entry', () => {
  let upload: { uuid: string };
  let list: string;
  beforeAll(async () => {
    upload = await uploadOk(ctx, alice, fixture('contacts-messy.csv'));
    list = await createList(alice, 'Mapping');
  });

  async function refused(body: Record<string, unknown>, field: string, ...fragments: string[]) {
    const res = await startImport(ctx, alice, upload.uuid, { list_uuid: list, ...body });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.data).toHaveProperty([field]);
    for (const fragment of fragments) expect(res.json().message).toContain(fragment);
  }

  it('refuses unknown targets, sources, custom fields and repeated targets', async () => {
    await refused(
      { columns: [{ source: 'Email', target: 'emial' }] },
      'columns.0.target',
      '"emial" is not a contact field',
      'work_email',
      'custom_fields.<custom field name>',
    );
    await refused(
      { columns: [{ source: 'Emial', target: 'email' }] },
      'columns.0.source',
      'not a column of the file',
      '"Email (2)"',
    );
    await refused(
      {
        columns: [
          { source: 'Email', target: 'email' },
          { source: 'Tags', target: 'custom_fields.nope' },
        ],
      },
      'columns.1.target',
      'names no contact custom field',
    );
    await refused(
      {
        columns: [
          { source: 'Email', target: 'email' },
          { source: 'Email (2)', target: 'email' },
        ],
      },
      'columns.1.target',
      'already mapped by columns.0.target',
    );
    await refused({ column_mapping: { Emial: 'email' } }, 'column_mapping.Emial', 'not a column of the file');
    await refused({ column_mapping: { Email: 'mail' } }, 'column_mapping.Email', 'is not a contact field');
  });

  it('refuses mappings that cannot identify a contact or are missing or doubled', async () => {
    await refused({ columns: [{ source: 'Tags', target: 'tags' }] }, 'columns', 'identifies a contact');
    await refused({ columns: [{ source: 'Email', target: null }] }, 'columns', 'at least one column');
    await refused({}, 'columns', 'columns is required');
    await refused(
      { columns: [{ source: 'Email', target: 'email' }], column_mapping: { Email: 'email' } },
      'columns',
      'not both',
    );
  });

  it('refuses another team\u2019s list and unknown tag uuids', async () => {
    const other = await ctx.createUser();
    const theirs = await createList(other, 'Theirs');
    await refused(
      { columns: [{ source: 'Email', target: 'email' }], list_uuid: theirs },
      'list_uuid',
      'lists',
    );
    await refused(
      { columns: [{ source: 'Email', target: 'email' }], tags: ['0190a0a0-0000-7000-8000-000000000000'] },
      'tags.0',
      'no tag of yours',
    );
    const badType = await startImport(ctx, alice, upload.uuid, {
      columns: [{ source: 'Email', target: 'email' }],
      update_if_exists: 'yes',
    });
    expect(badType.statusCode).toBe(422);
  });

  it('accepts a column number as source and leaves the upload untouched by refused requests', async () => {
    const before = (
      await ctx.request(alice, { method: 'GET', url: `/leads/api/file-imports/${upload.uuid}` })
    ).json();
    expect(before.status).toBe('uploaded');
    const res = await startImport(ctx, alice, upload.uuid, {
      columns: [
        { source: 2, target: 'email' },
        { source: 0, target: 'name' },
      ],
      list_uuid: list,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'queued',
      columns: [
        { source: 'Email', target: 'email' },
        { source: 'Name', target: 'name' },
      ],
    });
    const done = await finishedImport(ctx, alice, upload.uuid);
    // Five people with an e-mail, and Frank Fox known only by his name.
    expect(done).toMatchObject({ status: 'done', created_count: 6, undeduplicated_count: 1 });
  });
});

describe('an import that cannot run', () => {
  it('ends failed with the reason when its file is gone', async () => {
    const upload = await uploadOk(ctx, alice, 'email\nann@x.io\n');
    await rm(path.join(filesDir, 'imports', String(alice.teamId), `${upload.uuid}.csv`));
    const started = await startImport(ctx, alice, upload.uuid, {
      columns: [{ source: 'email', target: 'email' }],
    });
    expect(started.statusCode).toBe(200);
    const done = await finishedImport(ctx, alice, upload.uuid);
    expect(done).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('upload it again'),
      processed_rows: 0,
    });
    expect(done.finished_at).toBeTruthy();
  });
});

describe('GET /leads/api/file-imports/targets', () => {
  it('lists the targets a mapping accepts, aliases with the field they fill', async () => {
    const res = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/file-imports/targets?type=leads',
    });
    expect(res.statusCode).toBe(200);
    const byName = new Map(res.json().data.map((t: { name: string }) => [t.name, t]));
    expect(byName.get('email')).toMatchObject({ field: 'email', kind: 'text' });
    expect(byName.get('job_title')).toMatchObject({ field: 'position' });
    expect(byName.get('email_status')).toHaveProperty('values');
    const companies = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/file-imports/targets?type=companies',
    });
    expect(companies.json().data.map((t: { name: string }) => t.name)).toContain('website');
    const bad = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/file-imports/targets?type=tasks',
    });
    expect(bad.statusCode).toBe(422);
  });
});
