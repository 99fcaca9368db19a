// Tests never leave loopback: every request a test browser makes to a host other than 127.0.0.1 or
// localhost is aborted and remembered, and `assertNothingLeft()` fails the test file if any was made.
import type { BrowserContext } from 'playwright-core';

export function isLoopbackUrl(url: string): boolean {
  try {
    const { protocol, hostname } = new URL(url);
    if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
    return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
  } catch {
    return false;
  }
}

export function guardLoopback() {
  const escaped: string[] = [];
  return {
    escaped,
    async install(context: BrowserContext) {
      await context.route(
        (url) => !isLoopbackUrl(url.toString()),
        async (route) => {
          escaped.push(route.request().url());
          await route.abort('blockedbyclient');
        },
      );
    },
    assertNothingLeft() {
      if (escaped.length > 0) throw new Error(`Requests left loopback: ${escaped.join(', ')}`);
    },
  };
}
