import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { fixture, multipart, tempFilesDir, upload, uploadOk } from './files.test-support.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let filesDir: string;

const LIMIT = 4096;

beforeAll(async () => {
  filesDir = await tempFilesDir();
  ctx = await createTestContext({ config: { filesDir, uploadMaxBytes: LIMIT } });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

async function storedFiles(teamId: number): Promise<string[]> {
  return readdir(path.join(filesDir, 'imports', String(teamId))).catch(() => []);
}

describe('POST /leads/api/file-imports/upload-csv', () => {
  it('reads quoted cells with newlines, commas and quotes (UTF-8, comma)', async () => {
    const record = await uploadOk(ctx, alice, fixture('contacts-quoted.csv'), 'quoted.csv');
    expect(record).toMatchObject({
      team_id: alice.teamId,
      user_id: alice.userId,
      type: 'csv_leads',
      status: 'uploaded',
      file_name: 'quoted.csv',
      encoding: 'utf-8',
      has_bom: false,
      delimiter: ',',
      enclosure: '"',
      headers: ['first_name', 'last_name', 'email', 'company', 'about', 'linkedin'],
      rows_count: 3,
      columns: null,
      options: null,
      processed_rows: 0,
      errors: [],
    });
    expect(record.sample_rows[0]).toMatchObject({
      company: 'Acme, Inc.',
      about: 'Loves "clean" data.\nSecond line of about.',
    });
    expect(record.sample_rows[2]).toMatchObject({ first_name: 'Zoë', company: 'Ümlaut GmbH' });
    expect(record).not.toHaveProperty('storage_key');
  });

  it('detects a BOM and semicolons, and skips empty lines when counting rows', async () => {
    const record = await uploadOk(ctx, alice, fixture('contacts-bom-semicolon.csv'));
    expect(record).toMatchObject({
      encoding: 'utf-8',
      has_bom: true,
      delimiter: ';',
      headers: ['Vorname', 'Nachname', 'E-Mail', 'Firma', 'Position'],
      rows_count: 2,
    });
    expect(record.sample_rows[1]).toMatchObject({ Vorname: 'Anna', Firma: 'Schmidt; Söhne' });
  });

  it('decodes Windows-1252 files', async () => {
    const record = await uploadOk(ctx, alice, fixture('contacts-windows-1252.csv'));
    expect(record).toMatchObject({ encoding: 'windows-1252', delimiter: ';', rows_count: 3 });
    expect(record.sample_rows.map((row: Record<string, string>) => row.Name)).toEqual([
      'François Lefèvre',
      'Søren Østergård',
      'José Núñez',
    ]);
    expect(record.sample_rows[2].Title).toBe('Jefe de ventas – EMEA');
  });

  it('decodes UTF-16 (with or without BOM) with tabs', async () => {
    const record = await uploadOk(ctx, alice, fixture('contacts-utf16.csv'));
    expect(record).toMatchObject({ encoding: 'utf-16le', has_bom: true, delimiter: '\t', rows_count: 2 });
    expect(record.headers).toEqual(['First Name', 'Last Name', 'Email', 'Company']);
    expect(record.sample_rows[0].Company).toBe('王氏集团');
    const withoutBom = fixture('contacts-utf16.csv').subarray(2);
    const again = await uploadOk(ctx, alice, withoutBom);
    expect(again).toMatchObject({ encoding: 'utf-16le', has_bom: false, delimiter: '\t' });
    expect(again.sample_rows[1].Company).toBe('Петров и сыновья');
  });

  it('names duplicate and blank headers so a mapping can pick each', async () => {
    const record = await uploadOk(ctx, alice, fixture('contacts-messy.csv'));
    expect(record.headers).toEqual([
      'Name',
      'Company',
      'Email',
      'Email (2)',
      'Column 5',
      'Tags',
      'Connections',
    ]);
    // Empty lines and a line of bare delimiters are not rows.
    expect(record.rows_count).toBe(8);
    expect(record.sample_rows[0]).toMatchObject({
      Email: 'alice@acme.io',
      'Email (2)': 'alice.private@gmail.com',
    });
  });

  it('takes the type field and rejects an unknown one', async () => {
    const ok = await upload(ctx, alice, 'Name,Domain\nAcme,acme.com\n', 'c.csv', [
      { name: 'type', content: 'csv_companies' },
    ]);
    expect(ok.json().type).toBe('csv_companies');
    const bad = await upload(ctx, alice, 'Name\nAcme\n', 'c.csv', [{ name: 'type', content: 'xlsx' }]);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.data).toHaveProperty('type');
  });

  it('refuses files over the size limit with 413, and keeps nothing of them', async () => {
    const before = await storedFiles(alice.teamId);
    const big = `email\n${'someone@example.com\n'.repeat(400)}`;
    const res = await upload(ctx, alice, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.reason).toBe('payload_too_large');
    expect(res.json().message).toContain('upload limit');
    expect(await storedFiles(alice.teamId)).toEqual(before);
  });

  it('refuses what is not a CSV with 422', async () => {
    const cases: Array<[Buffer | string, string]> = [
      ['', 'empty'],
      [Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]), 'Excel workbook'],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]), 'PNG'],
      [Buffer.from('name,email\nab\u0000cd,x\n'), 'NUL'],
      ['{"leads": [{"email": "a@b.c"}]}', 'JSON'],
      ['\n\n\n', 'header row'],
      ['name,about\nJane,"never closed\n', 'Quote'],
    ];
    for (const [content, message] of cases) {
      const res = await upload(ctx, alice, content);
      expect(res.statusCode, message).toBe(422);
      expect(res.json().message).toContain('not a CSV');
      expect(res.json().message).toContain(message);
    }
    expect(await storedFiles(alice.teamId)).toHaveLength(
      (await ctx.db.selectFrom('file_imports').select('uuid').where('team_id', '=', alice.teamId).execute())
        .length,
    );
  });

  it('needs the file in the field "file" and a multipart body', async () => {
    const wrongField = multipart([{ name: 'csv', filename: 'a.csv', content: 'email\na@b.co\n' }]);
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/file-imports/upload-csv',
      payload: wrongField.payload,
      headers: wrongField.headers,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('"file"');
    const noFile = multipart([{ name: 'type', content: 'csv_leads' }]);
    const none = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/file-imports/upload-csv',
      payload: noFile.payload,
      headers: noFile.headers,
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().error.data).toHaveProperty('file');
    const json = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/file-imports/upload-csv',
      payload: { file: 'email\na@b.co' },
    });
    expect(json.statusCode).toBe(415);
  });

  it('needs an API key', async () => {
    const res = await upload(ctx, { ...alice, headers: {} }, 'email\na@b.co\n');
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /leads/api/file-imports', () => {
  it('lists the team\u2019s uploads newest first and filters by status', async () => {
    const carol = await ctx.createUser();
    const first = await uploadOk(ctx, carol, 'email\na@b.co\n', 'first.csv');
    const second = await uploadOk(ctx, carol, 'email\nc@d.co\n', 'second.csv');
    const page = await ctx.request(carol, { method: 'GET', url: '/leads/api/file-imports' });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 2, has_more: false });
    expect(page.json().data.map((r: { uuid: string }) => r.uuid)).toEqual([second.uuid, first.uuid]);
    const filtered = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/file-imports?filter[status]=done',
    });
    expect(filtered.json().total).toBe(0);
    const bad = await ctx.request(carol, {
      method: 'GET',
      url: '/leads/api/file-imports?filter[status]=nope',
    });
    expect(bad.statusCode).toBe(422);
  });

  it('keeps teams apart: another team\u2019s upload is 404 everywhere', async () => {
    const record = await uploadOk(ctx, alice, 'email\na@b.co\n');
    const url = `/leads/api/file-imports/${record.uuid}`;
    expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(404);
    const body = { columns: [{ source: 'email', target: 'email' }] };
    expect(
      (await ctx.request(bob, { method: 'POST', url: `${url}/import-leads`, payload: body })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.request(bob, { method: 'POST', url: `${url}/import-companies`, payload: body })).statusCode,
    ).toBe(404);
    const listed = await ctx.request(bob, { method: 'GET', url: '/leads/api/file-imports?limit=100' });
    expect(listed.json().data.map((r: { uuid: string }) => r.uuid)).not.toContain(record.uuid);
    expect((await ctx.request(alice, { method: 'GET', url })).statusCode).toBe(200);
  });
});

describe('starting an import', () => {
  it('queues it, refuses a second start while it is queued, and makes a list when none is given', async () => {
    const record = await uploadOk(ctx, alice, 'Email,Name\nann@x.io,Ann\n', 'Trade show leads.csv');
    const body = { columns: [{ source: 'Email', target: 'email' }] };
    const url = `/leads/api/file-imports/${record.uuid}/import-leads`;
    const started = await ctx.request(alice, { method: 'POST', url, payload: body });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({
      status: 'queued',
      type: 'csv_leads',
      total_rows: 1,
      processed_rows: 0,
      columns: [{ source: 'Email', target: 'email' }],
      options: {
        update_if_exists: true,
        move_to_list: false,
        skip_first_row: true,
        tags: [],
        data_source_uuid: null,
      },
    });
    const list = await ctx.request(alice, {
      method: 'GET',
      url: `/leads/api/lists/${started.json().list_uuid}`,
    });
    expect(list.json().name).toBe('Trade show leads.csv');
    const again = await ctx.request(alice, { method: 'POST', url, payload: body });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already running');
    const companies = await ctx.request(alice, {
      method: 'POST',
      url: `/leads/api/file-imports/${record.uuid}/import-companies`,
      payload: { columns: [{ source: 'Name', target: 'name' }] },
    });
    expect(companies.statusCode).toBe(409);
    const jobs = await sql<{ task_identifier: string; payload: unknown }>`
      select t.identifier as task_identifier, j.payload from graphile_worker._private_jobs j
      join graphile_worker._private_tasks t on t.id = j.task_id
    `.execute(ctx.db);
    expect(jobs.rows).toContainEqual({
      task_identifier: 'files.import',
      payload: { teamId: alice.teamId, uuid: record.uuid },
    });
  });

  it('counts the header row as data with skip_first_row false', async () => {
    const record = await uploadOk(ctx, alice, 'ann@x.io\nbob@x.io\n');
    const started = await ctx.request(alice, {
      method: 'POST',
      url: `/leads/api/file-imports/${record.uuid}/import-leads`,
      payload: { columns: [{ source: 0, target: 'email' }], skip_first_row: false },
    });
    expect(started.json()).toMatchObject({ total_rows: 2, options: { skip_first_row: false } });
  });
});
