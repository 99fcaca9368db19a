// npm run screenshots: the README's pictures. Starts the app on loopback with its own PostgreSQL (in
// .screenshots/), seeds a demo team (`leadflow demo`'s sender, seat, 50 contacts and started flow, plus
// to-dos, conversations and a blacklist entry), signs its owner in with Debian's Chromium
// (LEADFLOW_CHROMIUM_PATH) and writes one 1280x800 PNG per main page into docs/screenshots/, reduced to
// a 256-colour palette (upng-js) so each stays small. Needs the built app (npm run build).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import UPNG from 'upng-js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDatabaseIfMissing } from '../src/db/connect.js';
import { createDatabase } from '../src/db/database.js';
import { embeddedDatabaseUrl, startEmbeddedPostgres } from '../src/db/embedded.js';
import { migrateDatabase } from '../src/db/migrate.js';
import { buildDemo } from '../src/demo.js';
import { createServices } from '../src/deps.js';
import { DEFAULT_WEB_DIR } from '../src/http/web-app.js';
import { systemClock } from '../src/lib/clock.js';
import { newId } from '../src/lib/ids.js';
import { createLogger } from '../src/lib/logger.js';
import { launchChromium, setPasswordAndSignIn } from '../test/web/browser.js';

const OUT = path.resolve('docs/screenshots');
const SIZE = { width: 1280, height: 800 };

if (!existsSync(path.join(DEFAULT_WEB_DIR, 'index.html'))) {
  process.stderr.write('The web application is not built: run npm run build first.\n');
  process.exit(1);
}

const pg = await startEmbeddedPostgres({ dataDir: path.resolve('.screenshots'), port: 0 });
const dbName = `screens_${Date.now()}`;
await createDatabaseIfMissing(pg.url, dbName);
const handle = createDatabase(embeddedDatabaseUrl(pg.url, dbName), 5);
await migrateDatabase(handle.db, handle.pool);
const config = loadConfig(
  { LOG_LEVEL: 'warn', LEADFLOW_DATA_DIR: path.resolve('.screenshots') },
  { databaseUrl: embeddedDatabaseUrl(pg.url, dbName) },
);
const services = createServices({ db: handle.db, config, clock: systemClock });
const app = await buildApp({ config, db: handle.db, services, logger: createLogger('warn') });
const origin = await app.listen({ host: '127.0.0.1', port: 0 });
const browser = await launchChromium();

try {
  const owner = await services.identity.createUserWithTeam({
    email: 'owner@acme.example',
    teamName: 'Acme outreach',
  });
  const teamId = owner.team_id;
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${owner.api_key}` },
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
    return res.body ? res.json() : undefined;
  };
  const demo = await buildDemo(app, owner.api_key);
  await sql`update sender_profiles set assignee_user_id = ${owner.user_id} where team_id = ${teamId}`.execute(
    handle.db,
  );
  const contacts = (await call('POST', '/leads/api/leads/search', { limit: 12 })).data as {
    uuid: string;
    first_name: string;
  }[];
  await seedDay(contacts.slice(0, 5));
  await seedInbox(contacts.slice(5, 10));
  await call('POST', '/leads/api/leads-blacklist', { email: 'competitor@rival.example' });
  await call('POST', '/leads/api/companies-blacklist', { domain: 'rival.example' });

  const context = await browser.newContext({ viewport: SIZE, baseURL: origin, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const link = await services.accounts.issuePasswordLink('owner@acme.example');
  await setPasswordAndSignIn(page, link.url.replace(config.publicUrl, origin), 'a long enough password');

  mkdirSync(OUT, { recursive: true });
  const shots: [string, string, (p: Page) => Promise<unknown>][] = [
    [
      'contacts',
      '/contacts',
      (p) => p.getByRole('table', { name: 'Contacts' }).getByRole('link').first().waitFor(),
    ],
    [
      'contact',
      `/contacts/${contacts[0]!.uuid}`,
      (p) => p.getByRole('region', { name: 'Timeline' }).waitFor(),
    ],
    ['pipeline', '/pipeline', (p) => p.getByRole('heading', { name: 'Pipeline' }).waitFor()],
    ['import', '/imports', (p) => p.getByRole('heading', { level: 1 }).waitFor()],
    ['tasks', '/tasks', (p) => p.getByRole('heading', { name: 'Tasks' }).waitFor()],
    [
      'inbox',
      '/inbox',
      async (p) => {
        await p.getByRole('list', { name: 'Conversations' }).getByRole('button').first().click();
        await p.getByRole('textbox', { name: /reply/i }).first().waitFor();
      },
    ],
    ['senders', '/senders/seats', (p) => p.getByRole('table', { name: 'LinkedIn seats' }).waitFor()],
    [
      'flows',
      '/flows',
      (p) =>
        p
          .getByText(/Demo: invite/)
          .first()
          .waitFor(),
    ],
    ['flow-builder', `/flows/${demo.flowUuid}`, (p) => p.locator('.react-flow__node').first().waitFor()],
    [
      'flow-preview',
      `/flows/${demo.flowUuid}`,
      async (p) => {
        await p.getByRole('button', { name: 'What will happen' }).click();
        const drawer = p.getByRole('dialog', { name: 'What will happen' });
        await drawer.getByRole('button', { name: 'Run preview' }).click();
        await drawer
          .getByRole('region', { name: /^Actions per day of / })
          .first()
          .waitFor({ timeout: 30_000 });
      },
    ],
    [
      'flow-contacts',
      `/flows/${demo.flowUuid}/contacts`,
      (p) => p.getByRole('table', { name: 'Contacts in this flow' }).waitFor(),
    ],
    [
      'analytics',
      '/analytics',
      (p) => p.getByRole('region', { name: 'Actions per day per channel' }).waitFor(),
    ],
    ['settings-api-keys', '/settings/api-keys', (p) => p.getByRole('table', { name: 'API keys' }).waitFor()],
    [
      'settings-blacklist',
      '/settings/blacklist',
      (p) => p.getByRole('table', { name: 'Contact blacklist' }).waitFor(),
    ],
  ];
  for (const [name, url, ready] of shots) {
    await page.goto(url);
    await ready(page);
    await page.waitForLoadState('networkidle');
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    const png = await page.screenshot({ type: 'png' });
    const small = shrink(png);
    writeFileSync(path.join(OUT, `${name}.png`), small);
    process.stdout.write(`docs/screenshots/${name}.png (${Math.round(small.length / 1024)} KB)\n`);
  }
  await context.close();

  /** Five to-dos due now for the demo sender (My day). */
  async function seedDay(people: { uuid: string }[]) {
    const types = ['linkedin_send_message', 'linkedin_like_latest_post', 'linkedin_endorse_skills'];
    for (const [i, person] of people.entries()) {
      await call('POST', '/flows/api/tasks', {
        lead_uuid: person.uuid,
        sender_profile_uuid: demo.senderUuid,
        type: types[i % types.length],
        ...(i % 3 === 0 ? { text: 'Hi {{first_name}}, did the webinar recording reach you?' } : {}),
        note: [
          'Mention the webinar',
          'Ask about Q3 budget',
          'Follow up on the demo',
          'Say hello',
          'Send the case study',
        ][i],
        schedule_at: new Date().toISOString(),
      });
    }
  }

  /** LinkedIn conversations with replies (two unread) for the demo sender. */
  async function seedInbox(people: { uuid: string; first_name: string }[]) {
    for (const [i, person] of people.entries()) {
      const conversation = newId();
      const at = (minutes: number) => new Date(Date.now() - (i * 90 + minutes) * 60_000);
      await handle.db
        .insertInto('linkedin_conversations')
        .values({
          team_id: teamId,
          uuid: conversation,
          sender_profile_uuid: demo.senderUuid,
          lead_uuid: person.uuid,
          unread_count: i < 2 ? 1 : 0,
          last_activity_at: at(0),
        })
        .execute();
      const message = (type: 'inbox' | 'outbox', text: string, minutes: number) => ({
        team_id: teamId,
        uuid: newId(),
        sender_profile_uuid: demo.senderUuid,
        linkedin_conversation_uuid: conversation,
        lead_uuid: person.uuid,
        type,
        automation: 'synced' as const,
        linkedin_type: 'message',
        status: 'done' as const,
        text,
        sent_at: at(minutes),
        read_at: type === 'inbox' && i >= 2 ? at(minutes) : null,
      });
      await handle.db
        .insertInto('linkedin_messages')
        .values([
          message(
            'outbox',
            `Hi ${person.first_name}, thanks for connecting! Worth a quick chat about outreach?`,
            60,
          ),
          message(
            'inbox',
            ['Sure - Thursday works for me.', 'What does it cost?', 'Not right now, thanks.'][i % 3]!,
            0,
          ),
        ])
        .execute();
    }
  }
} finally {
  await browser.close();
  await app.close();
  await handle.close();
  await pg.stop();
}

/** The screenshot as a 256-colour PNG: a fraction of the size, no visible change for an app's flat UI. */
function shrink(png: Buffer): Buffer {
  const image = UPNG.decode(png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength) as ArrayBuffer);
  const rgba = UPNG.toRGBA8(image)[0]!;
  return Buffer.from(UPNG.encode([rgba], image.width, image.height, 256));
}
