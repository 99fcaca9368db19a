import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { docxBytes, PDF_BYTES, PNG_BYTES, zipOf } from '../../../test/zip.js';
import { multipart, type Part, tempFilesDir } from '../files/files.test-support.js';
import { requireAttachments } from './attachments.service.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let filesDir: string;
const LIMIT = 64 * 1024;

beforeAll(async () => {
  filesDir = await tempFilesDir();
  ctx = await createTestContext({ config: { filesDir, attachmentMaxBytes: LIMIT } });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

function post(user: TestUser, parts: Part[]) {
  const body = multipart(parts);
  return ctx.request(user, {
    method: 'POST',
    url: '/flows/api/attachments',
    payload: body.payload,
    headers: body.headers,
  });
}

function file(content: Buffer | string, filename: string, field = 'attachment'): Part {
  return { name: field, content, filename, contentType: 'application/octet-stream' };
}

async function storedFiles(teamId: number): Promise<string[]> {
  return readdir(path.join(filesDir, 'attachments', String(teamId))).catch(() => []);
}

describe('POST /flows/api/attachments', () => {
  it('stores a PNG with the payload part and answers the facts object', async () => {
    const res = await post(alice, [
      {
        name: 'payload',
        content: JSON.stringify({ name: 'photo.png', size: String(PNG_BYTES.length), type: 'image/png' }),
      },
      file(PNG_BYTES, 'upload.bin'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      team_id: alice.teamId,
      user_id: alice.userId,
      body: null,
      payload: { name: 'photo.png', size: String(PNG_BYTES.length), type: 'image/png' },
    });
    expect(body.payload.path).toBe(`attachments/${alice.teamId}/${body.uuid}`);
    expect(await storedFiles(alice.teamId)).toContain(body.uuid);
  });

  it('sniffs the type from the content, not the name or the declared type', async () => {
    const res = await post(alice, [
      { name: 'payload[type]', content: 'image/png' },
      file(PDF_BYTES, 'looks-like.png', 'file'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().payload).toMatchObject({ name: 'looks-like.png', type: 'application/pdf' });
  });

  it('accepts Office documents and plain text', async () => {
    const docx = await post(alice, [file(docxBytes(), 'proposal.docx')]);
    expect(docx.statusCode, docx.body).toBe(201);
    expect(docx.json().payload.type).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const csv = await post(alice, [file('name,company\nAnn,Acme\n', 'people.csv')]);
    expect(csv.json().payload.type).toBe('text/csv');
    const text = await post(alice, [file('Hello,\nsee you soon — Zoë\n', 'C:\\fakepath\\notes.txt')]);
    expect(text.json().payload).toMatchObject({ type: 'text/plain', name: 'notes.txt' });
  });

  it('refuses types it does not send with 415, keeping nothing', async () => {
    const before = await storedFiles(alice.teamId);
    const cases: Array<[Buffer | string, string, RegExp]> = [
      [Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]), 'invoice.pdf', /cannot be attached/],
      [zipOf({ 'a.txt': 'hello' }), 'archive.docx', /application\/zip/],
      ['<html><script>alert(1)</script></html>', 'page.txt', /markup/],
      [Buffer.from([0, 1, 2, 3, 4, 5, 255, 254]), 'blob.txt', /binary/],
      ['', 'empty.txt', /empty/],
    ];
    for (const [content, name, message] of cases) {
      const res = await post(alice, [file(content, name)]);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(415);
      expect(res.json().message).toMatch(message);
      expect(res.json().error.data).toHaveProperty('attachment');
    }
    expect(await storedFiles(alice.teamId)).toEqual(before);
  });

  it('answers 413 above the size limit and keeps nothing', async () => {
    const before = await storedFiles(alice.teamId);
    const big = Buffer.concat([PDF_BYTES, Buffer.alloc(LIMIT, 32)]);
    const res = await post(alice, [file(big, 'big.pdf')]);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().error.data).toHaveProperty('attachment');
    const huge = await post(alice, [file(Buffer.alloc(LIMIT * 3, 32), 'huge.txt')]);
    expect(huge.statusCode).toBe(413);
    expect(await storedFiles(alice.teamId)).toEqual(before);
  });

  it('names what is wrong with the form', async () => {
    const noFile = await post(alice, [{ name: 'payload', content: '{"name":"x.pdf"}' }]);
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().error.data).toHaveProperty('attachment');

    const unknown = await post(alice, [{ name: 'colour', content: 'red' }, file(PDF_BYTES, 'a.pdf')]);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error.data).toHaveProperty('colour');

    const payloadKey = await post(alice, [
      file(PDF_BYTES, 'a.pdf'),
      { name: 'payload', content: '{"team_id": 5}' },
    ]);
    expect(payloadKey.statusCode).toBe(422);
    expect(payloadKey.json().error.data).toHaveProperty(['payload.team_id']);

    const badJson = await post(alice, [{ name: 'payload', content: '{nope' }, file(PDF_BYTES, 'a.pdf')]);
    expect(badJson.statusCode).toBe(422);
    expect(badJson.json().error.data).toHaveProperty('payload');

    // A payload part declared application/json arrives parsed: taken when valid, a 422 naming it when not.
    const typedJson = await post(alice, [
      file(PDF_BYTES, 'a.pdf'),
      { name: 'payload', content: '{"name":"typed.pdf"}', contentType: 'application/json' },
    ]);
    expect(typedJson.statusCode, typedJson.body).toBe(201);
    expect(typedJson.json().payload.name).toBe('typed.pdf');
    const typedBad = await post(alice, [
      file(PDF_BYTES, 'a.pdf'),
      { name: 'payload', content: '{nope', contentType: 'application/json' },
    ]);
    expect(typedBad.statusCode).toBe(422);
    expect(typedBad.json().error.data).toHaveProperty('payload');

    const wrongSize = await post(alice, [
      file(PDF_BYTES, 'a.pdf'),
      { name: 'payload[size]', content: '99999' },
    ]);
    expect(wrongSize.statusCode).toBe(422);
    expect(wrongSize.json().message).toMatch(/99999 bytes/);

    const otherField = await post(alice, [file(PDF_BYTES, 'a.pdf', 'document')]);
    expect(otherField.statusCode).toBe(422);
    expect(otherField.json().error.data).toHaveProperty('document');

    const json = await ctx.request(alice, {
      method: 'POST',
      url: '/flows/api/attachments',
      payload: { name: 'x' },
    });
    expect(json.statusCode).toBe(415);
  });
});

describe('get, list and delete', () => {
  it('lists newest first with filters, gets one, and deletes it with its file', async () => {
    const created = (await post(alice, [file(PDF_BYTES, 'Quarterly report.pdf')])).json();
    const list = await ctx.request(alice, {
      method: 'GET',
      url: '/flows/api/attachments?filter[q]=quarterly&filter[type]=application/pdf',
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, has_more: false, data: [{ uuid: created.uuid }] });
    const all = (await ctx.request(alice, { method: 'GET', url: '/flows/api/attachments?limit=100' })).json();
    expect(all.data[0].uuid).toBe(created.uuid);
    expect(all.total).toBeGreaterThan(3);

    const got = await ctx.request(alice, { method: 'GET', url: `/flows/api/attachments/${created.uuid}` });
    expect(got.json()).toEqual(created);

    const deleted = await ctx.request(alice, {
      method: 'DELETE',
      url: `/flows/api/attachments/${created.uuid}`,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await storedFiles(alice.teamId)).not.toContain(created.uuid);
    const gone = await ctx.request(alice, { method: 'GET', url: `/flows/api/attachments/${created.uuid}` });
    expect(gone.statusCode).toBe(404);
    const again = await ctx.request(alice, {
      method: 'DELETE',
      url: `/flows/api/attachments/${created.uuid}`,
    });
    expect(again.statusCode).toBe(404);
  });

  it('keeps teams apart', async () => {
    const mine = (await post(alice, [file(PNG_BYTES, 'mine.png')])).json();
    const asBob = await ctx.request(bob, { method: 'GET', url: `/flows/api/attachments/${mine.uuid}` });
    expect(asBob.statusCode).toBe(404);
    expect(
      (await ctx.request(bob, { method: 'DELETE', url: `/flows/api/attachments/${mine.uuid}` })).statusCode,
    ).toBe(404);
    const bobs = (await ctx.request(bob, { method: 'GET', url: '/flows/api/attachments' })).json();
    expect(bobs.total).toBe(0);
    await expect(requireAttachments(ctx.db, bob.teamId, [{ uuid: mine.uuid }])).rejects.toMatchObject({
      status: 422,
      data: { 'attachments[0].uuid': expect.any(Array) },
    });
    const resolved = await requireAttachments(ctx.db, alice.teamId, [{ uuid: mine.uuid }]);
    expect(resolved[0]!.name).toBe('mine.png');
  });
});

describe('/leads/api/attachments (the path the hosted MCP server uses)', () => {
  it('uploads with the field "file", lists, gets and deletes like /flows/api/attachments', async () => {
    const body = multipart([file(PNG_BYTES, 'logo.png', 'file')]);
    const up = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/attachments',
      payload: body.payload,
      headers: body.headers,
    });
    expect(up.statusCode, up.body).toBe(201);
    const uuid = up.json().uuid as string;
    const listed = await ctx.request(alice, { method: 'GET', url: '/leads/api/attachments?limit=100' });
    expect(listed.json().data.map((a: { uuid: string }) => a.uuid)).toContain(uuid);
    const got = await ctx.request(alice, { method: 'GET', url: `/leads/api/attachments/${uuid}` });
    expect(got.json()).toEqual(
      (await ctx.request(alice, { method: 'GET', url: `/flows/api/attachments/${uuid}` })).json(),
    );
    expect(
      (await ctx.request(bob, { method: 'GET', url: `/leads/api/attachments/${uuid}` })).statusCode,
    ).toBe(404);
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/leads/api/attachments/${uuid}` })).statusCode,
    ).toBe(204);
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/flows/api/attachments/${uuid}` })).statusCode,
    ).toBe(404);
  });
});
