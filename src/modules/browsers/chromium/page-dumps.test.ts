// Pages the driver does not understand are saved redacted, and saved real pages become tests. The
// redaction is checked on the replica's pages (names, vanities, URNs and ids gone, scripts gone, the site
// profile's hooks still found); a read on an unknown layout leaves a dump; and every real page present in
// test/fixtures/linkedin-real/ (git-ignored; LEADFLOW_LINKEDIN_FIXTURES_DIR elsewhere) must show what its
// kind needs - skipped when there are none.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import { createChromiumReader } from './chromium-driver.js';
import { type DumpMeta, redactedPage } from './page-dumps.js';
import { openReplicaSeat, type ReplicaSeat } from './replica-seat.test-support.js';
import { checkItems, isMiss, PAGE_ITEMS } from './site-check.js';
import { guardLoopback } from './test-guard.js';

const FIXTURES =
  process.env.LEADFLOW_LINKEDIN_FIXTURES_DIR ??
  path.resolve(import.meta.dirname, '../../../../test/fixtures/linkedin-real');

/** The saved real pages: `<name>.html` with its `<name>.json` (DumpMeta). */
function realFixtures(): Array<{ name: string; html: string; meta: DumpMeta }> {
  if (!fs.existsSync(FIXTURES)) return [];
  return fs
    .readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.json') && fs.existsSync(path.join(FIXTURES, f.replace(/\.json$/, '.html'))))
    .map((f) => ({
      name: f,
      meta: JSON.parse(fs.readFileSync(path.join(FIXTURES, f), 'utf8')) as DumpMeta,
      html: fs.readFileSync(path.join(FIXTURES, f.replace(/\.json$/, '.html')), 'utf8'),
    }));
}

describe('page dumps and real-page fixtures', { timeout: 120_000 }, () => {
  let ctx: TestContext;
  let replica: Replica;
  let seat: ReplicaSeat;
  const guard = guardLoopback();
  const me = 'sam-sender';

  beforeAll(async () => {
    ctx = await createTestContext();
    replica = await startReplica();
    seat = await openReplicaSeat(ctx, replica, guard, { account: me });
  });
  afterAll(async () => {
    await seat?.close();
    await replica?.close();
    await ctx?.close();
    guard.assertNothingLeft();
  });

  const onPage = <T>(work: (page: Page) => Promise<T>) =>
    seat.browsers.use(seat.teamId, seat.seatId, ({ page }) => work(page));

  it('redacts who is on a page and keeps what the site profile looks for, on both profile layouts', async () => {
    replica.state.threads[me] = {
      'person-2': [
        {
          from: 'them',
          text: 'Call me on +49 30 1234567 or write to first2@example.com about the offer we discussed last week',
          at: '2026-05-20T10:00:00Z',
        },
      ],
    };
    for (const layout of ['legacy', 'sdui'] as const) {
      replica.mode.layout = layout;
      const { html, redactedPath, items } = await onPage(async (page) => {
        await page.goto(`${replica.url}/in/person-1/`);
        const { html, path: redactedPath } = await redactedPage(page);
        await page.setContent(html);
        return { html, redactedPath, items: await checkItems(page, PAGE_ITEMS.profile!) };
      });
      replica.mode.layout = 'legacy';
      for (const secret of ['First1', 'Last1', 'person-1', 'ACoAAP0001', '5001', 'person-0', 'First0']) {
        expect(html, `${layout}: ${secret}`).not.toContain(secret);
      }
      expect(html).not.toMatch(/<script|onclick=/i);
      expect(redactedPath).toMatch(/^\/in\/member-\d+\/$/);
      // The hooks the driver relies on survive: the top card and the name are found in the copy.
      expect(items.filter(isMiss), layout).toEqual([]);
    }
    const inbox = await onPage(async (page) => {
      await page.goto(`${replica.url}/messaging/`);
      const { html } = await redactedPage(page);
      await page.setContent(html);
      return { html, items: await checkItems(page, PAGE_ITEMS.messaging!) };
    });
    expect(inbox.html).not.toMatch(/person-2|1234567|first2@example|offer we discussed/);
    expect(inbox.items.filter(isMiss)).toEqual([]);
  });

  it('a read that cannot find its page saves it, redacted, with what it missed', async () => {
    const reader = createChromiumReader(
      { teamId: seat.teamId, seatId: seat.seatId },
      {
        browsers: seat.browsers,
        baseUrl: replica.url,
        contentTimeoutMs: 1_000,
        pace: { profileIntervalMs: 0, searchPageIntervalMs: 0, profilesPerDay: 0, searchPagesPerDay: 0 },
      },
    );
    const context = { teamId: seat.teamId, senderProfileUuid: seat.senderUuid, at: new Date() };
    replica.mode.renamedHooks = true;
    try {
      expect(await reader.getProfile(context, { linkedin: 'person-3' })).toMatchObject({
        reason: 'selector_miss',
      });
      // Once an hour per kind and item: a second miss adds nothing.
      await reader.getProfile(context, { linkedin: 'person-4' });
    } finally {
      replica.mode.renamedHooks = false;
    }
    const folder = path.join(seat.pageDumpsDir, `seat-${seat.teamId}-${seat.seatId}`);
    const files = fs.readdirSync(folder).sort();
    expect(files.map((f) => f.replace(/^.*-profile/, 'profile'))).toEqual([
      'profile.html',
      'profile.json',
      'profile.png',
    ]);
    const base = path.join(folder, files[0]!.replace(/\.html$/, ''));
    const meta = JSON.parse(fs.readFileSync(`${base}.json`, 'utf8')) as DumpMeta;
    expect(meta).toMatchObject({ kind: 'profile', missed: ['profile.topCard'] });
    expect(meta.path).toMatch(/^\/in\/member-\d+\/$/);
    const html = fs.readFileSync(`${base}.html`, 'utf8');
    expect(html).not.toMatch(/First3|person-3/);
    expect(html).toContain('data-fld='); // the unknown layout's own hooks are what a fixture is for
  });

  const fixtures = realFixtures();
  it.skipIf(fixtures.length === 0)(
    `every saved real page shows what its kind needs (${fixtures.length} in ${FIXTURES})`,
    async () => {
      const missing: string[] = [];
      for (const fixture of fixtures) {
        const items = PAGE_ITEMS[fixture.meta.kind];
        if (!items) continue;
        const results = await onPage(async (page) => {
          await page.setContent(fixture.html);
          return checkItems(page, items);
        });
        for (const r of results.filter(isMiss)) missing.push(`${fixture.name}: ${r.item}`);
      }
      expect(missing).toEqual([]);
    },
  );
});
