// The web application at scale, in headless Debian Chromium against the built app (dist/web): the
// contacts page of a team of BENCH_WEB_CONTACTS (1,000,000) contacts - time from navigation to the first
// rows, and its search call from the page against the same call made directly -, the JavaScript the first
// view loads (gzipped), and the inbox with 10,000 conversations, then with a large mailbox
// (BENCH_WEB_EMAILS e-mails, 1,000,000 by default) - page and GET /leads/api/inbox.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { DEFAULT_WEB_DIR } from '../../src/http/web-app.js';
import { newId } from '../../src/lib/ids.js';
import { defaultSchedule } from '../../src/lib/schedule.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import { launchChromium, setPasswordAndSignIn } from '../../test/web/browser.js';
import { type BenchRow, latencyRows, listen, measureRuns, percentile, type Scenario } from '../lib.js';
import { seedLeads } from './crm-data.js';
import { seedEmailThreads, seedLinkedinConversations } from './web-data.js';

const CONTACTS = Number(process.env.BENCH_WEB_CONTACTS ?? 1_000_000);
const EMAILS = Number(process.env.BENCH_WEB_EMAILS ?? 1_000_000);
const LOADS = 10;
const SEARCH = '/leads/api/leads/search';
const INBOX = '/leads/api/inbox';

const rowsOf = (metric: string, durations: number[], options: { goalMs?: number; baseline?: number } = {}) =>
  latencyRows('web', metric, durations, options);

/** Milliseconds from navigation to `ready`, and the durations of the page's calls to `apiPath`. */
async function timeLoad(page: Page, url: string, ready: () => Promise<void>, apiPath: string) {
  await page.goto('about:blank');
  const started = performance.now();
  await page.goto(url);
  await ready();
  const ms = performance.now() - started;
  const calls = await page.evaluate(
    (p) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname === p)
        .map((e) => (e as PerformanceResourceTiming).responseEnd - e.startTime),
    apiPath,
  );
  return { ms, call: calls[0] };
}

export const webScenario: Scenario = {
  name: 'web',
  description: `web app: contacts page with ${CONTACTS.toLocaleString('en-US')} contacts, inbox of 10,000 conversations and ${EMAILS.toLocaleString('en-US')} e-mails`,
  async run(server, log) {
    if (!existsSync(path.join(DEFAULT_WEB_DIR, 'index.html')))
      throw new Error('The web application is not built: run npm run build:web first.');
    const deps = await server.newDatabase('web');
    const { db } = deps.handle;
    const owner = await deps.services.identity.createUserWithTeam({
      email: 'web@example.test',
      teamName: 'Web',
    });
    const teamId = owner.team_id;
    const { app, url } = await listen(deps);
    const rows: BenchRow[] = [];
    const direct = async (method: 'GET' | 'POST', apiPath: string, body?: unknown) => {
      const res = await fetch(`${url}${apiPath}`, {
        method,
        headers: { authorization: `Bearer ${owner.api_key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${method} ${apiPath} → ${res.status}: ${await res.text()}`);
      return res.json();
    };

    // 1. Contacts, seeded with SQL like the crm scenario's.
    const list = (name: string) =>
      sql<{ uuid: string }>`insert into lists (team_id, uuid, name) values (${teamId}, ${newId()}, ${name})
        returning uuid`
        .execute(db)
        .then((r) => r.rows[0]!.uuid);
    const seedOptions = {
      teamId,
      mainList: await list('Main'),
      rareList: await list('Rare'),
      stage: await selectInitialStageUuid(db, teamId, 'lead'),
      tenthTag: (
        await sql<{ uuid: string }>`insert into tags (team_id, uuid, name)
          values (${teamId}, ${newId()}, 'Every tenth') returning uuid`.execute(db)
      ).rows[0]!.uuid,
    };
    for (let start = 0; start < CONTACTS; start += 100_000) {
      const count = Math.min(100_000, CONTACTS - start);
      await seedLeads(db, { ...seedOptions, start, count });
      log(`  seeded ${(start + count).toLocaleString('en-US')} contacts`);
    }
    await sql`vacuum analyze leads`.execute(db);

    // 2. Two senders of the owner; 5,000 LinkedIn conversations and 5,000 e-mail threads of 4 messages.
    const senders = [newId(), newId()];
    const mailboxes = [newId(), newId()];
    await db
      .insertInto('sender_profiles')
      .values(
        senders.map((uuid, i) => ({
          team_id: teamId,
          uuid,
          first_name: `Sender ${i + 1}`,
          schedule: JSON.stringify(defaultSchedule()),
          assignee_user_id: owner.user_id,
        })),
      )
      .execute();
    await seedLinkedinConversations(db, { teamId, senders, firstLead: 0, conversations: 5_000 });
    await seedEmailThreads(db, {
      teamId,
      senders,
      mailboxes,
      firstLead: 5_000,
      threads: 5_000,
      perThread: 4,
      key: 'small',
    });
    log('  seeded the inbox: 5,000 LinkedIn conversations, 5,000 e-mail threads (20,000 e-mails)');

    // 3. A browser signed in as the owner.
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: url });
      const page = await context.newPage();
      const link = await deps.services.accounts.issuePasswordLink('web@example.test');
      await setPasswordAndSignIn(
        page,
        link.url.replace(deps.config.publicUrl, url),
        'a long enough password',
      );

      // Initial JavaScript: what index.html loads, and every script the first view of /contacts fetched.
      const scripts = new Set<string>();
      const cold = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: url });
      await cold.addCookies(await context.cookies());
      const coldPage = await cold.newPage();
      coldPage.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
      });
      const firstRow = (p: Page) => () =>
        p.getByRole('table', { name: 'Contacts' }).getByRole('link').first().waitFor({ timeout: 30_000 });
      const coldLoad = await timeLoad(coldPage, '/contacts', firstRow(coldPage), SEARCH);
      await cold.close();
      const gz = (file: string) => gzipSync(readFileSync(path.join(DEFAULT_WEB_DIR, file))).length;
      const entry = [
        ...readFileSync(path.join(DEFAULT_WEB_DIR, 'index.html'), 'utf8').matchAll(/src="([^"]+\.js)"/g),
      ].map((m) => m[1]!);
      const entryKb = entry.reduce((sum, f) => sum + gz(f), 0) / 1024;
      const firstViewKb = [...scripts].reduce((sum, f) => sum + gz(f), 0) / 1024;
      rows.push(
        { scenario: 'web', metric: 'initial JS: index.html entry (gzip)', value: entryKb, unit: 'KB' },
        {
          scenario: 'web',
          metric: `initial JS: all ${scripts.size} scripts of the first /contacts view (gzip)`,
          value: firstViewKb,
          unit: 'KB',
          goal: '<= 300 KB',
          pass: firstViewKb <= 300,
        },
        {
          scenario: 'web',
          metric: 'contacts: first rows, cold browser cache',
          value: coldLoad.ms,
          unit: 'ms',
        },
      );

      // 4. Contacts: first rows after navigation (warm browser cache), and the search call from the page
      //    against the same call made directly.
      const contactLoads = [];
      for (let i = 0; i < LOADS + 2; i++)
        contactLoads.push(await timeLoad(page, '/contacts', firstRow(page), SEARCH));
      const loads = contactLoads.slice(2);
      const body = { limit: 100, offset: 0, order_field: 'created_at', order_type: 'desc' };
      const directSearch = await measureRuns(LOADS, () => direct('POST', SEARCH, body));
      const pageCalls = loads.map((l) => l.call ?? Number.NaN);
      rows.push(
        ...rowsOf(
          `contacts: first rows of ${CONTACTS.toLocaleString('en-US')}`,
          loads.map((l) => l.ms),
          {
            goalMs: 1000,
          },
        ),
        {
          scenario: 'web',
          metric: 'contacts: the page’s search call p95 (baseline: direct)',
          value: percentile(pageCalls, 95),
          unit: 'ms',
          baseline: percentile(directSearch, 95),
          goal: '<= 150% of direct',
          pass: percentile(pageCalls, 95) <= 1.5 * percentile(directSearch, 95),
        },
      );

      // 5. The inbox with 10,000 conversations, then with the large mailbox.
      const inbox = async (label: string) => {
        const firstConversation = () =>
          page
            .getByRole('list', { name: 'Conversations' })
            .getByRole('button')
            .first()
            .waitFor({ timeout: 30_000 });
        const inboxLoads = [];
        for (let i = 0; i < LOADS + 2; i++)
          inboxLoads.push(await timeLoad(page, '/inbox', firstConversation, INBOX));
        const query = `?limit=50&offset=0&sender_profile_uuid=${senders.join('&sender_profile_uuid=')}`;
        const apiRuns = await measureRuns(20, () => direct('GET', `${INBOX}${query}`));
        const floor = await measureRuns(20, () => direct('GET', '/id/api/users/current'));
        rows.push(
          ...rowsOf(
            `inbox (${label}): first conversations`,
            inboxLoads.slice(2).map((l) => l.ms),
            {
              goalMs: 1000,
            },
          ),
          ...rowsOf(`inbox (${label}): GET /leads/api/inbox`, apiRuns, { baseline: percentile(floor, 95) }),
        );
      };
      await inbox('10,000 conversations');
      const perThread = 10;
      const threads = Math.floor(EMAILS / perThread);
      if (threads > 0 && CONTACTS >= 10_000 + threads) {
        await seedEmailThreads(db, {
          teamId,
          senders,
          mailboxes,
          firstLead: 10_000,
          threads,
          perThread,
          key: 'big',
          onBatch: (done) => log(`  seeded ${(done * perThread).toLocaleString('en-US')} more e-mails`),
        });
        await inbox(
          `${(10_000 + threads).toLocaleString('en-US')} conversations, ${(EMAILS + 20_000).toLocaleString('en-US')} e-mails`,
        );
      } else {
        log('  the large mailbox needs BENCH_WEB_CONTACTS >= 10,000 + BENCH_WEB_EMAILS / 10: skipped');
      }
      await context.close();
    } finally {
      await browser.close();
      await app.close();
    }
    return rows;
  },
};
