// A message queued through the API with an uploaded attachment, sent by the send job's code through a
// chromium seat's real headless Chromium to the LinkedIn replica: the file is chosen in the composer,
// uploaded, and sent with the text - the replica records its name. A file deleted before the send is
// refused (not_found) without opening the browser.
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../../test/automation-factories.js';
import { makeLeads, makeList } from '../../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import { hasPrograms } from '../../../../test/system-programs.js';
import { PDF_BYTES } from '../../../../test/zip.js';
import { linkedInMessageDeps, secretBoxOf } from '../../../deps.js';
import { createAttachmentFiles } from '../../attachments/attachment-files.js';
import { multipart, tempFilesDir } from '../../files/files.test-support.js';
import { createLocalFileStore } from '../../files/storage.js';
import { processQueuedMessage } from '../../linkedin-messages/linkedin-send.js';
import { saveSession } from '../seat-session.js';
import { createChromiumDriver } from './chromium-driver.js';
import { createSeatBrowsers, type SeatBrowsers } from './seat-browsers.js';
import { guardLoopback } from './test-guard.js';

const CHROMIUM = hasPrograms('the Chromium attachment tests', ['chromium']);

describe('LinkedIn message attachments through a chromium seat', {
  skip: !CHROMIUM,
  timeout: 120_000,
}, () => {
  let ctx: TestContext;
  let user: TestUser;
  let replica: Replica;
  let browsers: SeatBrowsers;
  let filesDir: string;
  let senderUuid: string;
  let leadUuid: string;
  let deps: ReturnType<typeof linkedInMessageDeps>;
  const guard = guardLoopback();

  beforeAll(async () => {
    replica = await startReplica();
    filesDir = await tempFilesDir();
    ctx = await createTestContext({ config: { filesDir } });
    user = await ctx.createUser();
    const box = secretBoxOf(ctx.config);
    browsers = createSeatBrowsers({
      config: { linkedin: { ...ctx.config.linkedin, maxOpenBrowsers: 1 } },
      db: ctx.db,
      secretBox: box,
      onContext: guard.install,
    });
    const sender = await makeSender(ctx.db, user.teamId);
    senderUuid = sender.uuid;
    const seat = await ctx.db
      .insertInto('linkedin_browsers')
      .values({
        team_id: user.teamId,
        sender_profile_uuid: senderUuid,
        driver: 'chromium',
        status: 'running',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await saveSession(
      ctx.db,
      box,
      user.teamId,
      seat.id,
      replica.sessionOf(replica.signIn('sam-sender')),
      new Date(),
    );
    const list = await makeList(ctx.db, user.teamId);
    [leadUuid] = (
      await makeLeads(ctx.db, user.teamId, list.uuid, [{ first_name: 'First2', linkedin: 'person-2' }])
    ).map((l) => l.uuid) as [string];
    replica.state.relations['sam-sender'] = { 'person-2': 'connected' };
    deps = linkedInMessageDeps(
      { db: ctx.db, config: ctx.config, clock: { now: () => new Date() } },
      undefined,
      {
        linkedinDrivers: {
          chromium: (s) =>
            createChromiumDriver(
              { teamId: s.team_id, seatId: s.id },
              {
                browsers,
                baseUrl: replica.url,
                timeoutMs: 20_000,
                attachmentFiles: createAttachmentFiles(ctx.db, createLocalFileStore(filesDir)),
              },
            ),
        },
      },
    );
  });
  afterAll(async () => {
    await browsers?.closeAll();
    await replica?.close();
    await ctx?.close();
    if (filesDir) await fs.rm(filesDir, { recursive: true, force: true });
    guard.assertNothingLeft();
  });

  async function upload(name: string) {
    const body = multipart([
      {
        name: 'payload',
        content: JSON.stringify({ name, size: String(PDF_BYTES.length), type: 'application/pdf' }),
      },
      { name: 'attachment', content: PDF_BYTES, filename: name, contentType: 'application/pdf' },
    ]);
    const res = await ctx.request(user, {
      method: 'POST',
      url: '/flows/api/attachments',
      payload: body.payload,
      headers: body.headers,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().uuid as string;
  }

  async function queue(text: string, attachments: string[]) {
    const res = await ctx.request(user, {
      method: 'POST',
      url: '/flows/api/linkedin-messages',
      payload: {
        sender_profile_uuid: senderUuid,
        lead_uuid: leadUuid,
        text,
        attachments: attachments.map((uuid) => ({ uuid })),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().uuid as string;
  }

  const row = (uuid: string) =>
    ctx.db
      .selectFrom('linkedin_messages')
      .select(['status', 'fail_reason', 'attachments'])
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();

  it('uploads the files in the composer and sends them with the text, once', async () => {
    const [deck, terms] = [await upload('deck.pdf'), await upload('terms.pdf')];
    const uuid = await queue('Here is the deck, First2.', [deck, terms]);
    expect(await processQueuedMessage(deps, user.teamId, uuid, new Date())).toMatchObject({
      outcome: 'sent',
    });
    expect(await row(uuid)).toMatchObject({ status: 'done', attachments: [{ uuid: deck }, { uuid: terms }] });
    expect(replica.actions('message')).toEqual([
      expect.objectContaining({
        to: 'person-2',
        text: 'Here is the deck, First2.',
        attachments: ['deck.pdf', 'terms.pdf'],
      }),
    ]);
    expect(replica.state.threads['sam-sender']?.['person-2']?.at(-1)?.attachments).toEqual([
      'deck.pdf',
      'terms.pdf',
    ]);
  });

  it('refuses a message whose attachment was deleted since it was queued', async () => {
    const gone = await upload('old.pdf');
    const uuid = await queue('The old file', [gone]);
    const deleted = await ctx.request(user, { method: 'DELETE', url: `/flows/api/attachments/${gone}` });
    expect(deleted.statusCode).toBe(204);
    expect(await processQueuedMessage(deps, user.teamId, uuid, new Date())).toMatchObject({
      outcome: 'failed',
    });
    expect((await row(uuid)).fail_reason).toBe(`not_found: The attachment ${gone} no longer exists.`);
    expect(replica.actions('message')).toHaveLength(1);
  });
});
