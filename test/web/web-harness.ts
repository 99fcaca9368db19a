// Browser tests of the web application: one real server (the app on loopback with the built dist/web and a
// private database) and one headless Debian Chromium per test file, pages checked with axe-core.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEFAULT_WEB_DIR } from '../../src/http/web-app.js';
import { guardLoopback } from '../../src/modules/browsers/chromium/test-guard.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';
import { hasPrograms } from '../system-programs.js';
import { launchChromium, setPasswordAndSignIn } from './browser.js';

/** Why browser tests cannot run here (printed once), or undefined when they can. */
export const webTestsUnavailable: string | undefined = (() => {
  if (!hasPrograms('the web application browser tests', ['chromium'])) return 'no Chromium';
  // CI builds the app in npm ci (prepare); elsewhere a missing build skips with the command to run.
  if (!existsSync(path.join(DEFAULT_WEB_DIR, 'index.html')) && !process.env.CI) {
    process.stderr.write(
      'skipping the web application browser tests: the web application is not built (run npm run build)\n',
    );
    return 'not built';
  }
  return undefined;
})();

export type WebHarness = {
  ctx: TestContext;
  origin: string;
  browser: Browser;
  owner: TestUser;
  /** A fresh browser context (cookies of its own) guarded to loopback. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /** Signs the owner in through a one-time password link, as after the first start. */
  signInOwner(page: Page): Promise<void>;
  close(): Promise<void>;
};

export const OWNER_PASSWORD = 'a long enough password';

export async function startWebHarness(
  options: Parameters<typeof createTestContext>[0] = {},
): Promise<WebHarness> {
  const ctx = await createTestContext({
    ...options,
    env: { LEADFLOW_SIGN_IN_ATTEMPTS_PER_MINUTE: '1000', ...(options.env ?? {}) },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  const owner = await ctx.createUser('Web team');
  const browser = await launchChromium();
  const guard = guardLoopback();
  const contexts: BrowserContext[] = [];

  return {
    ctx,
    origin,
    browser,
    owner,
    async newPage(viewport = { width: 1280, height: 800 }) {
      const context = await browser.newContext({ viewport, baseURL: origin });
      contexts.push(context);
      await guard.install(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => process.stderr.write(`page error: ${error.message}\n`));
      return page;
    },
    async signInOwner(page) {
      const link = await ctx.services.accounts.issuePasswordLink(owner.email);
      await setPasswordAndSignIn(page, link.url.replace(ctx.config.publicUrl, origin), OWNER_PASSWORD);
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await ctx.close();
      guard.assertNothingLeft();
    },
  };
}

/** axe-core on the page as it is: no serious or critical violation (listed by rule and target when any). */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // A dialog fading in has half-transparent colours: let running transitions end before axe reads them.
  // Two frames first, so a transition the last click scheduled has started (else none is running yet).
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' && !a.pending),
    undefined,
    {
      timeout: 5_000,
    },
  );
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`).join(', ')}`,
    );
  expect(bad, `accessibility of ${what}`).toEqual([]);
}

/**
 * The page fits its viewport's width: nothing scrolls sideways (the document's width, and no element wider
 * than the viewport outside a scroll container). Answers the widest offenders when there are any.
 */
export async function expectNoHorizontalOverflow(page: Page, what: string): Promise<void> {
  const offenders = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (el: Element | null): boolean => {
      for (let e = el; e && e !== document.body; e = e.parentElement) {
        const style = getComputedStyle(e);
        if (['auto', 'scroll', 'hidden'].includes(style.overflowX) && e.scrollWidth > e.clientWidth)
          return true;
      }
      return false;
    };
    const wide = Array.from(document.body.querySelectorAll('*'))
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !scrolls(el.parentElement))
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.getAttribute('aria-label') ? `[${el.getAttribute('aria-label')}]` : ''} right=${Math.round(el.getBoundingClientRect().right)}`,
      )
      .slice(0, 5);
    return document.documentElement.scrollWidth > width
      ? [`document ${document.documentElement.scrollWidth}px`, ...wide]
      : wide;
  });
  expect(offenders, `${what} fits ${await page.evaluate(() => window.innerWidth)} px`).toEqual([]);
}
