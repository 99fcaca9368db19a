// CSV exports of companies, and what is whose: another team's export, its file, path-like names and
// exports that are not done (contacts: exports.routes.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { download, exportOf, rowsOf, tempFilesDir } from './files.test-support.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let list: string;

beforeAll(async () => {
  ctx = await createTestContext({ config: { filesDir: await tempFilesDir() } });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  await ctx.startWorkers();
  list = (
    await ctx.request(alice, { method: 'POST', url: '/leads/api/lists', payload: { name: 'Export me' } })
  ).json().uuid;
});
afterAll(() => ctx.close());

describe('exporting companies', () => {
  it('writes company columns with list and tag names and records account_exported events', async () => {
    const created = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/companies',
      payload: {
        companies: [
          {
            name: 'Acme',
            domain: 'acme.io',
            industry: 'Tools',
            tags: ['partner'],
            hashtags: ['#b2b', '#saas'],
          },
          { name: '+Plus GmbH', website: 'https://plus.de' },
        ],
        list_uuids: [list],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const done = await exportOf(ctx, alice, 'companies', { filter: { lists: [list] } });
    expect(done).toMatchObject({ type: 'account_export_csv', rows_count: 2 });
    expect(done.file_name).toMatch(/^companies-export-/);
    const rows = rowsOf((await download(ctx, alice, { file_name: done.file_name })).body);
    expect(rows.find((row) => row.name === 'Acme')).toMatchObject({
      domain: 'acme.io',
      industry: 'Tools',
      lists: 'Export me',
      tags: 'partner',
      hashtags: '#b2b, #saas',
      pipeline_stage_name: 'New',
    });
    expect(rows.map((row) => row.name)).toContain("'+Plus GmbH");
    const events = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('team_id', '=', alice.teamId)
      .where('name', '=', 'account_exported')
      .execute();
    expect(events.map((e) => (e.payload as { account: { name: string } }).account.name).sort()).toEqual([
      '+Plus GmbH',
      'Acme',
    ]);
    const empty = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/file-exports/companies',
      payload: { filter: {} },
    });
    expect(empty.statusCode).toBe(422);
  });
});

describe('records and downloads are the team\u2019s own', () => {
  it('answers 404 for another team\u2019s export, its file and unknown names', async () => {
    const done = await exportOf(ctx, alice, 'leads', { filter: { all: true } });
    expect(
      (await ctx.request(bob, { method: 'GET', url: `/leads/api/file-exports/${done.uuid}` })).statusCode,
    ).toBe(404);
    expect((await download(ctx, bob, { file_name: done.file_name })).statusCode).toBe(404);
    expect((await download(ctx, bob, { uuid: done.uuid })).statusCode).toBe(404);
    expect(
      (await download(ctx, alice, { file_name: 'leads-export-2026-01-01-000000000000000000000000.csv' }))
        .statusCode,
    ).toBe(404);
    const listed = await ctx.request(bob, { method: 'GET', url: '/leads/api/file-exports?limit=100' });
    expect(listed.json().data.map((e: { uuid: string }) => e.uuid)).not.toContain(done.uuid);
    const own = await ctx.request(alice, {
      method: 'GET',
      url: '/leads/api/file-exports?filter[status]=done',
    });
    expect(own.json().data.map((e: { uuid: string }) => e.uuid)).toContain(done.uuid);
  });

  it('refuses names that are paths', async () => {
    const done = await exportOf(ctx, alice, 'leads', { filter: { all: true } });
    for (const name of [
      `../${alice.teamId}/${done.file_name}`,
      `../../exports/${bob.teamId}/x.csv`,
      '/etc/passwd',
      '..',
      `${done.file_name}/..`,
      'a\\..\\b.csv',
    ]) {
      const res = await download(ctx, alice, { file_name: name });
      expect(res.statusCode, name).toBe(422);
      expect(res.json().error.data).toHaveProperty('file_name');
    }
    expect((await download(ctx, alice, {})).statusCode).toBe(422);
  });

  it('does not serve an export before it is done', async () => {
    const queued = await ctx.db
      .insertInto('file_exports')
      .values({
        team_id: alice.teamId,
        uuid: '0190a0a0-0000-7000-8000-0000000000aa',
        type: 'contact_export_csv',
        status: 'processing',
        filter: '{"all":true}',
        file_name: 'leads-export-2026-01-01-aaaaaaaaaaaaaaaaaaaaaaaa.csv',
        storage_key: `exports/${alice.teamId}/leads-export-2026-01-01-aaaaaaaaaaaaaaaaaaaaaaaa.csv`,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect((await download(ctx, alice, { file_name: queued.file_name! })).statusCode).toBe(404);
    expect((await download(ctx, alice, { uuid: queued.uuid })).statusCode).toBe(404);
  });
});
