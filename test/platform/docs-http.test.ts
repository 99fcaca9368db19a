// /docs opened over plain http under a LAN host name (HOST=0.0.0.0 on a server): every script and style
// the page loads must come over that same http origin, and no header may make the browser upgrade them
// to https (a blank page) - while the protective part of the policy stays.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../harness.js';

let ctx: TestContext;
let port: number;
const HOST_HEADER = 'leadflow-box.lan:8080';

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(() => ctx.close());

/** GET as a browser on the LAN would send it: to our socket, with the LAN host name. */
function get(path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host: HOST_HEADER } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

function checkHeaders(path: string, headers: http.IncomingHttpHeaders) {
  expect(headers['strict-transport-security'], path).toBeUndefined();
  const csp = headers['content-security-policy'];
  if (csp === undefined) return;
  expect(csp, path).not.toContain('upgrade-insecure-requests');
  expect(csp, path).not.toContain('block-all-mixed-content');
}

describe('/docs over plain http on a LAN host name', () => {
  it('loads the page and everything it references over http, with the protective policy kept', async () => {
    const page = await get('/docs/');
    expect(page.status).toBe(200);
    checkHeaders('/docs/', page.headers);
    const csp = String(page.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'self'",
      'script-src',
    ]) {
      expect(csp).toContain(directive);
    }

    const base = new URL(`http://${HOST_HEADER}/docs/`);
    const references = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(references.length).toBeGreaterThan(2);
    for (const reference of references) {
      const url = new URL(reference, base);
      // Relative references stay on the page's own http origin.
      expect(url.origin, reference).toBe(`http://${HOST_HEADER}`);
      const asset = await get(url.pathname + url.search);
      expect(asset.status, reference).toBe(200);
      checkHeaders(reference, asset.headers);
    }

    // The initializer fetches the OpenAPI document relative to the page, too.
    const initializer = await get('/docs/static/swagger-initializer.js');
    expect(initializer.status).toBe(200);
    const specPath = initializer.body.match(/resolveUrl\('([^']+)'\)/)?.[1];
    expect(specPath).toBeDefined();
    const spec = await get(new URL(specPath!, base).pathname);
    expect(spec.status).toBe(200);
    expect(JSON.parse(spec.body).openapi).toBe('3.1.0');
  });
});
