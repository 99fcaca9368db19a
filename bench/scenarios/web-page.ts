// Measuring a page of the web app in headless Chromium for `npm run bench -- web`: the time from navigation
// to the frame that shows what the user waits for (on the page's clock), every API call the page made (Resource Timing: when it was queued, sent and
// answered), and the same calls replayed directly from Node with the page's own cookie and headers.
import type { BrowserContext, Page } from 'playwright-core';
import { measureRuns, percentile } from '../lib.js';

/** One API call of a page load, in milliseconds since navigation started. */
export type PageCall = { key: string; start: number; sent: number; end: number };
/** `ms`: navigation start to the first frame showing `selector`, on the page's own clock. */
export type PageLoad = { ms: number; calls: PageCall[] };

const API = /^\/[a-z0-9-]+\/api\//;

/**
 * Records, on every page of the context, when each of `selectors` first matched: checked at every
 * animation frame, so the time is that of the frame that paints it. Playwright's own waiting polls with
 * a backoff of up to 500 ms, which would be billed to the page.
 */
export async function watchFirstPaint(context: BrowserContext, selectors: string[]): Promise<void> {
  // A string, not a function: tsx would wrap inner functions in a helper the page does not have.
  await context.addInitScript(`{
    const wanted = ${JSON.stringify(selectors)};
    const seen = (window.__benchSeen = {});
    requestAnimationFrame(function frame(now) {
      for (const selector of wanted)
        if (seen[selector] === undefined && document.querySelector(selector)) seen[selector] = now;
      if (wanted.some((selector) => seen[selector] === undefined)) requestAnimationFrame(frame);
    });
  }`);
}

/** Navigates to `url` and waits until `selector` (one given to watchFirstPaint) shows. */
export async function timeLoad(page: Page, url: string, selector: string): Promise<PageLoad> {
  await page.goto('about:blank');
  await page.goto(url);
  const handle = await page.waitForFunction(
    (sel) => {
      const at = (window as unknown as { __benchSeen?: Record<string, number> }).__benchSeen?.[sel];
      return at ?? false;
    },
    selector,
    { timeout: 30_000, polling: 50 },
  );
  const ms = (await handle.jsonValue()) as number;
  const calls = await page.evaluate((pattern) => {
    const api = new RegExp(pattern);
    return performance
      .getEntriesByType('resource')
      .filter((e) => api.test(new URL(e.name).pathname))
      .map((e) => {
        const t = e as PerformanceResourceTiming;
        const u = new URL(t.name);
        return { key: u.pathname + u.search, start: t.startTime, sent: t.requestStart, end: t.responseEnd };
      });
  }, API.source);
  return { ms, calls };
}

type Captured = { method: string; url: string; body: string | undefined; headers: Record<string, string> };

/** The API requests of one load of `url` (method, address, body and the app's own headers), in order. */
export async function captureApiRequests(page: Page, url: string, selector: string): Promise<Captured[]> {
  const captured: Captured[] = [];
  const listener = (request: import('playwright-core').Request) => {
    if (!API.test(new URL(request.url()).pathname)) return;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers()))
      if (['x-csrf-token', 'team-id', 'content-type'].includes(name)) headers[name] = value;
    captured.push({
      method: request.method(),
      url: request.url(),
      body: request.postData() ?? undefined,
      headers,
    });
  };
  page.on('request', listener);
  await timeLoad(page, url, selector);
  page.off('request', listener);
  return captured;
}

/**
 * Each captured request replayed from Node one at a time, with the page's session cookie (the same
 * authentication, CSRF check and body): the direct cost of every call the page makes.
 */
export async function replayDirectly(
  context: BrowserContext,
  requests: Captured[],
  runs: number,
): Promise<Map<string, number[]>> {
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const out = new Map<string, number[]>();
  for (const r of requests) {
    const u = new URL(r.url);
    const key = u.pathname + u.search;
    if (out.has(key)) continue;
    out.set(
      key,
      await measureRuns(runs, async () => {
        const res = await fetch(r.url, {
          method: r.method,
          headers: { ...r.headers, cookie, 'accept-encoding': 'gzip, deflate, br' },
          ...(r.body === undefined ? {} : { body: r.body }),
        });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${r.method} ${key} → ${res.status}`);
      }),
    );
  }
  return out;
}

/** Per API path: p95 of the page's calls (start to response end), and of the same call made directly. */
export function compareCalls(loads: PageLoad[], direct: Map<string, number[]>) {
  return [...direct.entries()].map(([key, directRuns]) => {
    const page = loads.flatMap((l) => l.calls.filter((c) => c.key === key).map((c) => c.end - c.start));
    const queued = loads.flatMap((l) => l.calls.filter((c) => c.key === key).map((c) => c.sent - c.start));
    return {
      key,
      page: percentile(page, 95),
      queued: percentile(queued, 95),
      direct: percentile(directRuns, 95),
    };
  });
}

/** A load's calls as text, one per line: when each was queued, sent and answered. */
export function waterfall(load: PageLoad): string[] {
  return [...load.calls]
    .sort((a, b) => a.start - b.start)
    .map(
      (c) =>
        `    ${c.start.toFixed(0).padStart(5)} ${c.sent.toFixed(0).padStart(5)} ${c.end.toFixed(0).padStart(5)} ms  ${c.key}`,
    )
    .concat(`    shown at ${load.ms.toFixed(0)} ms`);
}
