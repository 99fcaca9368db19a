// CSV exports of contacts: columns, formulas neutralised, events, chosen columns, the mass action and
// a round trip through the import (companies and access: exports.access.test.ts).
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import {
  download,
  exportOf,
  finishedExport,
  importFile,
  rowsOf,
  tempFilesDir,
} from './files.test-support.js';

let ctx: TestContext;
let alice: TestUser;
let list: string;

const LEADS_CSV = [
  'first_name,last_name,email,company,position,phone,about,tags,tier',
  'Ann,Lee,ann@acme.io,Acme,CEO,+49 30 1234,"Likes ""quotes"", commas\nand lines","vip, west",gold',
  '=cmd|calc,Evil,evil@x.io,-Minus Corp,@position,,\tTabbed,,',
  'Bo,Chen,bo@globex.com,Globex,CTO,,,west,',
].join('\n');

beforeAll(async () => {
  ctx = await createTestContext({ config: { filesDir: await tempFilesDir() } });
  alice = await ctx.createUser();
  await ctx.startWorkers();
  list = (
    await ctx.request(alice, { method: 'POST', url: '/leads/api/lists', payload: { name: 'Export me' } })
  ).json().uuid;
  await ctx.request(alice, {
    method: 'POST',
    url: '/leads/api/custom-fields',
    payload: { name: 'tier', object: 'lead' },
  });
  const record = await importFile(ctx, alice, LEADS_CSV, {
    columns: [
      { source: 'first_name', target: 'first_name' },
      { source: 'last_name', target: 'last_name' },
      { source: 'email', target: 'email' },
      { source: 'company', target: 'company_name' },
      { source: 'position', target: 'position' },
      { source: 'phone', target: 'work_phone_number' },
      { source: 'about', target: 'about' },
      { source: 'tags', target: 'tags' },
      { source: 'tier', target: 'custom_fields.tier' },
    ],
    list_uuid: list,
  });
  expect(record.created_count).toBe(3);
});
afterAll(() => ctx.close());
describe('exporting contacts', () => {
  it('writes every standard column, list and stage names, tag names and custom fields', async () => {
    const done = await exportOf(ctx, alice, 'leads', { filter: { list_uuid: list } });
    expect(done).toMatchObject({
      type: 'contact_export_csv',
      team_id: alice.teamId,
      user_id: alice.userId,
      filter: { list_uuid: list },
      fields: null,
      rows_count: 3,
      error: null,
    });
    expect(done.file_name).toMatch(/^leads-export-\d{4}-\d{2}-\d{2}-[0-9a-f]{24}\.csv$/);
    const res = await download(ctx, alice, { file_name: done.file_name });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${done.file_name}"`);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(Number(res.headers['content-length'])).toBe(done.size_bytes);
    const rows = rowsOf(res.body);
    expect(Object.keys(rows[0]!)).toEqual(
      expect.arrayContaining([
        'uuid',
        'first_name',
        'work_email',
        'list_name',
        'pipeline_stage_name',
        'tags',
        'tier',
      ]),
    );
    const ann = rows.find((row) => row.first_name === 'Ann')!;
    expect(ann).toMatchObject({
      name: 'Ann Lee',
      company_name: 'Acme',
      work_email: 'ann@acme.io',
      list_uuid: list,
      list_name: 'Export me',
      pipeline_stage_name: 'New',
      tags: 'vip, west',
      tier: 'gold',
      about: 'Likes "quotes", commas\nand lines',
    });
    expect(ann.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const done = await exportOf(ctx, alice, 'leads', { filter: { list_uuid: list } });
    const text = (await download(ctx, alice, { uuid: done.uuid })).body;
    const evil = rowsOf(text).find((row) => row.last_name === 'Evil')!;
    expect(evil.first_name).toBe("'=cmd|calc");
    expect(evil.company_name).toBe("'-Minus Corp");
    expect(evil.position).toBe("'@position");
    expect(rowsOf(text).find((row) => row.first_name === 'Ann')!.work_phone_number).toBe("'+49 30 1234");
    // No raw cell starts with a formula character.
    for (const row of parse(text, { bom: true }) as string[][]) {
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('records one contact_exported event per exported contact with the status change', async () => {
    const before = await ctx.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', alice.teamId)
      .where('name', '=', 'contact_exported')
      .executeTakeFirstOrThrow();
    const done = await exportOf(ctx, alice, 'leads', { filter: { tags: 'is_not_null', list_uuid: list } });
    expect(done.rows_count).toBe(2);
    const events = await ctx.db
      .selectFrom('events')
      .select(['lead_uuid', 'payload'])
      .where('team_id', '=', alice.teamId)
      .where('name', '=', 'contact_exported')
      .orderBy('occurred_at')
      .execute();
    expect(events).toHaveLength(Number(before.n) + 2);
    const latest = events.slice(-2);
    expect(
      latest.map((e) => (e.payload as { contact: { first_name: string } }).contact.first_name).sort(),
    ).toEqual(['Ann', 'Bo']);
  });

  it('exports only the asked columns, in order, and refuses unknown ones', async () => {
    const done = await exportOf(ctx, alice, 'leads', {
      filter: { all: true },
      fields: ['work_email', 'tier', 'tags'],
    });
    const text = (await download(ctx, alice, { file_name: done.file_name })).body;
    expect(text.replace('\ufeff', '').split('\r\n')[0]).toBe('work_email,tier,tags');
    const bad = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/file-exports/leads',
      payload: { filter: { all: true }, fields: ['work_email', 'shoe_size'] },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.data).toHaveProperty(['fields.1']);
    expect(bad.json().message).toContain('list_name');
  });

  it('refuses missing, empty and invalid filters with 422', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'filter'],
      [{ filter: {} }, 'filter'],
      [{ filter: { shoe_size: 42 } }, 'filter.shoe_size'],
      [{ filter: { created_at: { '>=': 'yesterday' } } }, 'filter.created_at.>='],
      [{ filter: { ids: ['not-a-uuid'] } }, 'filter.ids.0'],
    ];
    for (const [payload, field] of cases) {
      const res = await ctx.request(alice, { method: 'POST', url: '/leads/api/file-exports/leads', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().error.data).toHaveProperty([field]);
    }
  });
});

describe('the contact_export_csv mass action', () => {
  it('queues the same export for its selection, leaving blacklisted contacts out', async () => {
    const entry = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { email: 'bo@globex.com' },
    });
    expect(entry.statusCode).toBe(201);
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: '/leads/api/leads/mass-action',
      payload: {
        type: 'contact_export_csv',
        filter: { list_uuid: list },
        payload: { fields: ['work_email', 'tags'] },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      affected: null,
      operation: null,
      export: {
        type: 'contact_export_csv',
        status: 'queued',
        filter: { list_uuid: list },
        fields: ['work_email', 'tags'],
      },
    });
    const done = await finishedExport(ctx, alice, res.json().export.uuid);
    expect(done).toMatchObject({ status: 'done', rows_count: 2 });
    const rows = rowsOf((await download(ctx, alice, { file_name: done.file_name })).body);
    expect(rows.map((row) => row.work_email).sort()).toEqual(['ann@acme.io', 'evil@x.io']);
    expect(Object.keys(rows[0]!)).toEqual(['work_email', 'tags']);

    const bad = await ctx.request(alice, {
      method: 'PUT',
      url: '/leads/api/leads/mass-action',
      payload: { type: 'contact_export_csv', filter: { list_uuid: 'nope' } },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.data).toHaveProperty(['filter.list_uuid']);
    const badFields = await ctx.request(alice, {
      method: 'PUT',
      url: '/leads/api/leads/mass-action',
      payload: { type: 'contact_export_csv', filter: { all: true }, payload: { fields: 'work_email' } },
    });
    expect(badFields.statusCode).toBe(422);
    const entries = await ctx.request(alice, { method: 'GET', url: '/leads/api/leads-blacklist' });
    for (const row of entries.json().data) {
      await ctx.request(alice, { method: 'DELETE', url: `/leads/api/leads-blacklist/${row.uuid}` });
    }
  });
});

describe('round trip', () => {
  it('re-importing an export finds every contact, and another team gets the same contacts', async () => {
    const done = await exportOf(ctx, alice, 'leads', { filter: { list_uuid: list } });
    const csv = (await download(ctx, alice, { file_name: done.file_name })).rawPayload;
    const importable = [
      'first_name',
      'last_name',
      'name',
      'company_name',
      'position',
      'headline',
      'about',
      'work_email',
      'personal_email',
      'work_phone_number',
      'linkedin',
      'raw_address',
      'tags',
    ];
    const header = parse(csv, { bom: true, to_line: 1 })[0] as string[];
    const columns = header.map((source) => ({
      source,
      target: source === 'tier' ? 'custom_fields.tier' : importable.includes(source) ? source : null,
    }));
    const same = await importFile(ctx, alice, csv, { columns, list_uuid: list });
    expect(same).toMatchObject({
      total_rows: 3,
      created_count: 0,
      updated_count: 0,
      duplicate_count: 3,
      error_count: 0,
    });

    const carol = await ctx.createUser();
    await ctx.request(carol, {
      method: 'POST',
      url: '/leads/api/custom-fields',
      payload: { name: 'tier', object: 'lead' },
    });
    const carolList = (
      await ctx.request(carol, { method: 'POST', url: '/leads/api/lists', payload: { name: 'X' } })
    ).json().uuid;
    const copied = await importFile(ctx, carol, csv, { columns, list_uuid: carolList });
    expect(copied).toMatchObject({ created_count: 3, error_count: 0 });
    const pick = (rows: Record<string, string>[]) =>
      rows
        .map(({ uuid, list_uuid, list_name, pipeline_stage_uuid, created_at, updated_at, ...rest }) => rest)
        .sort((a, b) => a.work_email!.localeCompare(b.work_email!));
    const again = await exportOf(ctx, carol, 'leads', { filter: { all: true } });
    const carolRows = rowsOf((await download(ctx, carol, { file_name: again.file_name })).body);
    expect(pick(carolRows)).toEqual(pick(rowsOf(csv.toString('utf8'))));
  });
});
