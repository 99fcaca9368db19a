import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { enqueueJob } from '../../jobs/queue.js';
import { removeExpiredFiles, removeExpiredFilesJob } from './files.retention.js';
import { finishedExport, importFile, startImport, tempFilesDir, uploadOk } from './files.test-support.js';

let ctx: TestContext;
let alice: TestUser;
let filesDir: string;

const CSV = 'first_name,email\nAnn,ann@acme.io\nBo,bo@globex.com\n';
const DAY = 86_400_000;
const COLUMNS = [
  { source: 'first_name', target: 'first_name' },
  { source: 'email', target: 'email' },
];

beforeAll(async () => {
  filesDir = await tempFilesDir();
  ctx = await createTestContext({ config: { filesDir } });
  alice = await ctx.createUser();
  await ctx.startWorkers();
});
afterAll(() => ctx.close());

async function exportAll(user: TestUser) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/leads/api/file-exports/leads',
    payload: { filter: { all: true } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return finishedExport(ctx, user, res.json().uuid);
}

async function storageKey(table: 'file_exports' | 'file_imports', uuid: string) {
  const row = await ctx.db
    .selectFrom(table)
    .select('storage_key')
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();
  return path.join(filesDir, row.storage_key!);
}

/** Moves a record's age back by `days` (its creation and, when set, its finish). The new times are
 * values: Citus refuses `timestamptz - interval` on a column inside an UPDATE. */
async function age(table: 'file_exports' | 'file_imports', uuid: string, days: number) {
  const { rows } = await sql<{ created_at: Date; finished_at: Date | null }>`
    select created_at, finished_at from ${sql.table(table)} where uuid = ${uuid}
  `.execute(ctx.db);
  const back = (at: Date) => new Date(at.getTime() - days * 86_400_000);
  await sql`
    update ${sql.table(table)} set created_at = ${back(rows[0]!.created_at)},
      finished_at = ${rows[0]!.finished_at ? back(rows[0]!.finished_at) : null}
    where uuid = ${uuid}
  `.execute(ctx.db);
}

const download = (user: TestUser, uuid: string) =>
  ctx.request(user, { method: 'POST', url: '/leads/api/file-exports/download', payload: { uuid } });

describe('file retention', () => {
  it('removes expired export files and uploads, keeps the records and refuses them with a reason', async () => {
    const imported = await importFile(ctx, alice, CSV, { columns: COLUMNS });
    expect(imported.status).toBe('done');
    const oldExport = await exportAll(alice);
    const newExport = await exportAll(alice);
    const neverImported = await uploadOk(ctx, alice, CSV);
    const running = await uploadOk(ctx, alice, CSV);
    await ctx.db
      .updateTable('file_imports')
      .set({ status: 'processing' })
      .where('uuid', '=', running.uuid)
      .execute();
    for (const [table, uuid] of [
      ['file_exports', oldExport.uuid],
      ['file_imports', imported.uuid],
      ['file_imports', neverImported.uuid],
      ['file_imports', running.uuid],
    ] as const) {
      await age(table, uuid, 8);
    }
    const oldExportFile = await storageKey('file_exports', oldExport.uuid);
    const runningFile = await storageKey('file_imports', running.uuid);
    expect(existsSync(oldExportFile)).toBe(true);

    const removed = await removeExpiredFiles(
      ctx.db,
      ctx.services.files.store,
      new Date(Date.now() - 7 * DAY),
    );
    expect(removed).toEqual({ exports: 1, uploads: 2 });
    expect(existsSync(oldExportFile)).toBe(false);
    expect(existsSync(await storageKey('file_imports', imported.uuid))).toBe(false);
    expect(existsSync(await storageKey('file_imports', neverImported.uuid))).toBe(false);
    // A running import keeps its file whatever its age.
    expect(existsSync(runningFile)).toBe(true);

    const exportRecord = (
      await ctx.request(alice, { method: 'GET', url: `/leads/api/file-exports/${oldExport.uuid}` })
    ).json();
    expect(exportRecord).toMatchObject({ status: 'done', file_name: oldExport.file_name });
    expect(Date.parse(exportRecord.file_removed_at)).toBeGreaterThan(Date.now() - 60_000);
    const gone = await download(alice, oldExport.uuid);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toContain('removed');
    expect(gone.json().message).toContain('LEADFLOW_FILE_RETENTION_DAYS');
    expect((await download(alice, newExport.uuid)).statusCode).toBe(200);

    const importRecord = (
      await ctx.request(alice, { method: 'GET', url: `/leads/api/file-imports/${imported.uuid}` })
    ).json();
    expect(importRecord).toMatchObject({ status: 'done', created_count: 2 });
    expect(importRecord.file_removed_at).not.toBeNull();
    const again = await startImport(ctx, alice, imported.uuid, { columns: COLUMNS });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('upload it again');

    // Nothing left to remove: a second pass is a no-op.
    expect(
      await removeExpiredFiles(ctx.db, ctx.services.files.store, new Date(Date.now() - 7 * DAY)),
    ).toEqual({ exports: 0, uploads: 0 });
  });

  it('runs as a scheduled job with the configured retention', async () => {
    const known = await sql<{ identifier: string }>`
      select identifier from graphile_worker._private_known_crontabs
    `.execute(ctx.db);
    expect(known.rows.map((row) => row.identifier)).toEqual(
      expect.arrayContaining(['files.removeExpired', 'events.pruneOld']),
    );
    const old = await exportAll(alice);
    const fresh = await exportAll(alice);
    await age('file_exports', old.uuid, ctx.config.retention.fileDays + 1);
    await enqueueJob(ctx.db, removeExpiredFilesJob, {});
    await waitFor(async () => (await download(alice, old.uuid)).statusCode === 404);
    expect((await download(alice, fresh.uuid)).statusCode).toBe(200);
  });
});
