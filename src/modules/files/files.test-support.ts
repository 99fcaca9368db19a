// Helpers for the files tests: multipart bodies for inject(), fixture files, and polling an import or
// export until its job is done.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { makeTempDir } from '../../../test/temp-dirs.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/csv');

export function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

/** A files directory for a test context, removed when the test file ends. */
export function tempFilesDir(): Promise<string> {
  return makeTempDir('leadflow-files-');
}

export type Part = { name: string; content: Buffer | string; filename?: string; contentType?: string };

/** A multipart/form-data body and its content-type header. */
export function multipart(parts: Part[]) {
  const boundary = `----leadflow${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const type =
      part.filename || part.contentType ? `\r\nContent-Type: ${part.contentType ?? 'text/csv'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export function upload(
  ctx: TestContext,
  user: TestUser,
  content: Buffer | string,
  filename = 'contacts.csv',
  extra: Part[] = [],
) {
  const body = multipart([{ name: 'file', filename, content }, ...extra]);
  return ctx.request(user, {
    method: 'POST',
    url: '/leads/api/file-imports/upload-csv',
    payload: body.payload,
    headers: body.headers,
  });
}

export async function uploadOk(
  ctx: TestContext,
  user: TestUser,
  content: Buffer | string,
  filename?: string,
) {
  const res = await upload(ctx, user, content, filename);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function startImport(
  ctx: TestContext,
  user: TestUser,
  uuid: string,
  body: Record<string, unknown>,
  kind: 'leads' | 'companies' = 'leads',
) {
  return ctx.request(user, {
    method: 'POST',
    url: `/leads/api/file-imports/${uuid}/import-${kind}`,
    payload: body,
  });
}

/** Polls the import until it is done or failed. */
export async function finishedImport(ctx: TestContext, user: TestUser, uuid: string, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const res = await ctx.request(user, { method: 'GET', url: `/leads/api/file-imports/${uuid}` });
      const record = res.json();
      return record.status === 'done' || record.status === 'failed' ? record : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Uploads, starts the import and waits for it; workers must be running. */
export async function importFile(
  ctx: TestContext,
  user: TestUser,
  content: Buffer | string,
  body: Record<string, unknown>,
  kind: 'leads' | 'companies' = 'leads',
) {
  const uploaded = await uploadOk(ctx, user, content, kind === 'leads' ? 'contacts.csv' : 'companies.csv');
  const started = await startImport(ctx, user, uploaded.uuid, body, kind);
  expect(started.statusCode, started.body).toBe(200);
  return finishedImport(ctx, user, uploaded.uuid);
}

export async function finishedExport(ctx: TestContext, user: TestUser, uuid: string, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const res = await ctx.request(user, { method: 'GET', url: `/leads/api/file-exports/${uuid}` });
      const record = res.json();
      return record.status === 'done' || record.status === 'failed' ? record : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Every counter of a finished import adds up to its rows. */
type Counters = Record<
  | 'total_rows'
  | 'processed_rows'
  | 'created_count'
  | 'updated_count'
  | 'duplicate_count'
  | 'blacklisted_count'
  | 'error_count',
  number
>;

export function expectAccounted(record: Counters) {
  expect(record.processed_rows).toBe(record.total_rows);
  expect(
    record.created_count +
      record.updated_count +
      record.duplicate_count +
      record.blacklisted_count +
      record.error_count,
  ).toBe(record.total_rows);
}

/** Queues an export of `kind` through the API and waits until it is done. */
export async function exportOf(
  ctx: TestContext,
  user: TestUser,
  kind: 'leads' | 'companies',
  body: Record<string, unknown>,
) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: `/leads/api/file-exports/${kind}`,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().status).toBe('queued');
  const done = await finishedExport(ctx, user, res.json().uuid);
  expect(done.status, done.error).toBe('done');
  return done;
}

export async function download(ctx: TestContext, user: TestUser, body: Record<string, unknown>) {
  return ctx.request(user, { method: 'POST', url: '/leads/api/file-exports/download', payload: body });
}

/** The records of a CSV export (its header names the fields). */
export function rowsOf(text: string): Record<string, string>[] {
  return parse(text, { bom: true, columns: true }) as Record<string, string>[];
}

/** A new list of `user`'s team. */
export async function createList(ctx: TestContext, user: TestUser, name: string): Promise<string> {
  const res = await ctx.request(user, { method: 'POST', url: '/leads/api/lists', payload: { name } });
  return res.json().uuid;
}

/** The contacts matching `filter`, oldest first. */
export async function contactsOf(ctx: TestContext, user: TestUser, filter: Record<string, unknown>) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/leads/api/leads/search',
    payload: { filter, limit: 1000, order_field: 'created_at', order_type: 'asc' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<Record<string, unknown>>;
}
