// The web application at scale, in headless Debian Chromium against the built app (dist/web): the
// contacts page of a team of BENCH_WEB_CONTACTS (1,000,000) contacts - time from navigation to the first
// rows, and every API call of the page against the same call made directly -, the JavaScript the first
// view loads (gzipped), and the inbox with 10,000 conversations, then a second team's inbox of
// BENCH_WEB_EMAILS (1,000,000) e-mails - page and GET /leads/api/inbox. The seeded database is kept as a
// template between runs (bench/lib.ts cachedDatabase; BENCH_CACHE=0 seeds afresh).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEFAULT_WEB_DIR } from '../../src/http/web-app.js';
import { launchChromium, setPasswordAndSignIn } from '../../test/web/browser.js';
import { type BenchRow, latencyRows, listen, measureRuns, percentile, type Scenario } from '../lib.js';
import { findWebData, seedWebData, WEB_OWNER, type WebTeam } from './web-data.js';
import {
  captureApiRequests,
  compareCalls,
  replayDirectly,
  timeLoad,
  watchFirstPaint,
  waterfall,
} from './web-page.js';

const CONTACTS = Number(process.env.BENCH_WEB_CONTACTS ?? 1_000_000);
const EMAILS = Number(process.env.BENCH_WEB_EMAILS ?? 1_000_000);
const LOADS = 10;
const SEARCH = '/leads/api/leads/search';
const INBOX = '/leads/api/inbox';
const GOAL_RATIO = 1.5;
const FIRST_ROW = 'table[aria-label="Contacts"] tbody a';
const FIRST_CONVERSATION = 'ul[aria-label="Conversations"] button';

/** The seeding code's hash: a kept database of the same scale seeded by other code is replaced. */
function seedVersion(): string {
  const hash = createHash('sha256');
  for (const file of ['web-data.ts', 'crm-data.ts'])
    hash.update(readFileSync(path.resolve('bench/scenarios', file)));
  return hash.digest('hex').slice(0, 8);
}

const rowsOf = (metric: string, durations: number[], options: { goalMs?: number; baseline?: number } = {}) =>
  latencyRows('web', metric, durations, options);

export const webScenario: Scenario = {
  name: 'web',
  description: `web app: contacts page with ${CONTACTS.toLocaleString('en-US')} contacts, inbox of 10,000 conversations, a mailbox of ${EMAILS.toLocaleString('en-US')} e-mails`,
  async run(server, log) {
    if (!existsSync(path.join(DEFAULT_WEB_DIR, 'index.html')))
      throw new Error('The web application is not built: run npm run build:web first.');
    const deps = await server.cachedDatabase(
      `web_${CONTACTS}_${EMAILS}`,
      seedVersion(),
      (d) => seedWebData(d, { contacts: CONTACTS, emails: EMAILS }, log),
      log,
    );
    const { ownerId, web, mailbox } = await findWebData(deps.handle.db);
    const apiKey = (await deps.services.identity.createApiKey(ownerId, web.teamId, 'bench')).last_token;
    const { app, url } = await listen(deps);
    const rows: BenchRow[] = [];
    const direct = async (method: 'GET' | 'POST', apiPath: string, body?: unknown, teamId = web.teamId) => {
      const res = await fetch(`${url}${apiPath}`, {
        method,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'team-id': String(teamId),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${method} ${apiPath} → ${res.status}: ${await res.text()}`);
      return res.json();
    };

    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: url });
      await watchFirstPaint(context, [FIRST_ROW, FIRST_CONVERSATION]);
      const page = await context.newPage();
      const link = await deps.services.accounts.issuePasswordLink(WEB_OWNER);
      await setPasswordAndSignIn(
        page,
        link.url.replace(deps.config.publicUrl, url),
        'a long enough password',
      );
      const chooseTeam = (teamId: number) =>
        page.evaluate((id) => localStorage.setItem('leadflow.team', String(id)), teamId);
      await chooseTeam(web.teamId);

      // Initial JavaScript: what index.html loads, and every script the first view of /contacts fetched.
      const scripts = new Set<string>();
      const cold = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: url });
      await cold.addCookies(await context.cookies());
      await watchFirstPaint(cold, [FIRST_ROW]);
      const coldPage = await cold.newPage();
      coldPage.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
      });
      const coldLoad = await timeLoad(coldPage, '/contacts', FIRST_ROW);
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

      // Contacts: first rows after navigation (warm browser cache); every API call of the page against
      // the same call replayed directly (same cookie and body), and the search call with an API key.
      const loads = [];
      for (let i = 0; i < LOADS + 2; i++) loads.push(await timeLoad(page, '/contacts', FIRST_ROW));
      const measured = loads.slice(2);
      const sorted = [...measured].sort((a, b) => a.ms - b.ms);
      log('  the median contacts load (queued, sent, answered):');
      for (const line of waterfall(sorted[Math.floor(LOADS / 2)]!)) log(line);
      rows.push(
        ...rowsOf(
          `contacts: first rows of ${CONTACTS.toLocaleString('en-US')}`,
          measured.map((l) => l.ms),
          { goalMs: 1000 },
        ),
      );
      const requests = await captureApiRequests(page, '/contacts', FIRST_ROW);
      const replayed = await replayDirectly(context, requests, LOADS);
      for (const call of compareCalls(measured, replayed)) {
        rows.push({
          scenario: 'web',
          metric: `contacts: ${call.key} p95 from the page (queued p95 ${call.queued.toFixed(0)} ms; baseline: direct)`,
          value: call.page,
          unit: 'ms',
          baseline: call.direct,
          goal: `<= ${GOAL_RATIO * 100}% of direct`,
          pass: call.page <= GOAL_RATIO * call.direct,
        });
      }
      const body = { limit: 100, offset: 0, order_field: 'created_at', order_type: 'desc' };
      const withKey = await measureRuns(LOADS, () => direct('POST', SEARCH, body));
      rows.push(...rowsOf(`contacts: POST ${SEARCH} direct with an API key`, withKey));

      // The inbox: 10,000 conversations (team Web), then the large mailbox (team Mailbox).
      const inbox = async (label: string, team: WebTeam) => {
        await chooseTeam(team.teamId);
        const inboxLoads = [];
        for (let i = 0; i < LOADS + 2; i++)
          inboxLoads.push(await timeLoad(page, '/inbox', FIRST_CONVERSATION));
        const query = `?limit=50&offset=0&sender_profile_uuid=${team.senders.join('&sender_profile_uuid=')}`;
        const apiRuns = await measureRuns(20, () =>
          direct('GET', `${INBOX}${query}`, undefined, team.teamId),
        );
        const floor = await measureRuns(20, () => direct('GET', '/id/api/users/current'));
        const pageCalls = inboxLoads
          .slice(2)
          .flatMap((l) => l.calls.filter((c) => c.key.startsWith(`${INBOX}?`)).map((c) => c.end - c.start));
        rows.push(
          ...rowsOf(
            `inbox (${label}): first conversations`,
            inboxLoads.slice(2).map((l) => l.ms),
            { goalMs: 1000 },
          ),
          ...rowsOf(`inbox (${label}): GET ${INBOX} from the page`, pageCalls, {
            baseline: percentile(apiRuns, 95),
          }),
          ...rowsOf(`inbox (${label}): GET ${INBOX} direct`, apiRuns, { baseline: percentile(floor, 95) }),
        );
        const slowest = [...inboxLoads.slice(2)].sort((a, b) => a.ms - b.ms)[LOADS - 1]!;
        log(`  the slowest inbox load (${label}):`);
        for (const line of waterfall(slowest)) log(line);
      };
      await inbox('10,000 conversations', web);
      if (mailbox) await inbox(`${EMAILS.toLocaleString('en-US')} e-mails`, mailbox);
      else log('  BENCH_WEB_EMAILS=0: the large mailbox is skipped');
      await chooseTeam(web.teamId);
      await context.close();
    } finally {
      await browser.close();
      await app.close();
    }
    return rows;
  },
};
