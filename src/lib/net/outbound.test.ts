// The outbound guard as other modules use it: `resolve` hands back the checked address to connect to,
// `check` validates a saved setting, and `fetch` (what an LLM SDK takes) refuses private targets before
// connecting and reaches them when the policy opens them.
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedTargetError, blockedCause, outboundGuard, outboundPolicy } from './outbound.js';

let server: http.Server;
let hits = 0;
let port = 0;
beforeAll(async () => {
  server = http.createServer((_request, response) => {
    hits += 1;
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** `rebind.test` answers a public address first and loopback afterwards. */
function rebindingDns(): LookupFunction {
  let calls = 0;
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    const address = calls++ === 0 ? '93.184.215.14' : '127.0.0.1';
    if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  }) as unknown as LookupFunction;
}

describe('outboundGuard', () => {
  it('resolves a name to the address to connect to, keeping the name for TLS', async () => {
    const guard = outboundGuard({ allowPrivate: true });
    expect(await guard.resolve('127.0.0.1')).toEqual({
      host: '127.0.0.1',
      address: '127.0.0.1',
      servername: undefined,
    });
    const local = await guard.resolve('localhost');
    expect(local.servername).toBe('localhost');
    expect(['127.0.0.1', '::1']).toContain(local.address);
    expect((await guard.resolve('[::1]')).address).toBe('::1');
  });

  it('refuses before connecting, with the subject and the switch in the message', async () => {
    const guard = outboundGuard(
      outboundPolicy(
        { outbound: { allowPrivate: false, allowlist: [] }, webhooks: { allowPrivateTargets: false } },
        'llm',
      ),
    );
    const refusal = await guard.resolve('localhost').catch((error) => error);
    expect(refusal).toBeInstanceOf(BlockedTargetError);
    expect(refusal.message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/);
    expect(refusal.message).toContain('LLM endpoints may only reach public addresses');
    expect(refusal.message).toContain('LEADFLOW_OUTBOUND_ALLOW_PRIVATE=true lifts this');
    await expect(guard.check('10.1.1.1')).rejects.toBeInstanceOf(BlockedTargetError);
    // A name that does not resolve passes the check of a saved setting: every connection is checked.
    await expect(guard.check('nothing.example.invalid')).resolves.toBeUndefined();
    await expect(guard.resolve('nothing.example.invalid')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('checks the address a second lookup gives (DNS rebinding) when connecting', async () => {
    const guard = outboundGuard({ allowPrivate: false }, { lookup: rebindingDns() });
    expect((await guard.resolve('rebind.test')).address).toBe('93.184.215.14');
    const fetch = guard.fetch({ timeoutMs: 2000 });
    const error = await fetch(`http://rebind.test:${port}/`).catch((e) => e);
    expect(blockedCause(error)?.message).toContain('rebind.test resolves to 127.0.0.1');
  });

  it('gives SDKs a fetch that refuses private targets and reaches them once the policy opens them', async () => {
    const before = hits;
    const strict = outboundGuard({ allowPrivate: false }).fetch({ timeoutMs: 2000 });
    const refused = await strict(`http://127.0.0.1:${port}/v1/models`).catch((e) => e);
    expect(blockedCause(refused)).toBeInstanceOf(BlockedTargetError);
    expect(hits).toBe(before);

    const open = outboundGuard(
      outboundPolicy(
        {
          outbound: { allowPrivate: false, allowlist: ['127.0.0.1'] },
          webhooks: { allowPrivateTargets: false },
        },
        'llm',
      ),
    ).fetch({ timeoutMs: 2000 });
    const response = await open(`http://127.0.0.1:${port}/v1/models`);
    expect(await response.json()).toEqual({ ok: true });
    expect(hits).toBe(before + 1);
  });

  it('lets the webhook switches open webhooks and gs_call_api, and only those', () => {
    const settings = {
      outbound: { allowPrivate: false, allowlist: ['10.0.0.0/8'] },
      webhooks: { allowPrivateTargets: true, allowlist: ['hooks.corp'] },
    };
    expect(outboundPolicy(settings, 'webhook')).toMatchObject({
      allowPrivate: true,
      allowlist: ['10.0.0.0/8', 'hooks.corp'],
    });
    expect(outboundPolicy(settings, 'http_node').allowPrivate).toBe(true);
    expect(outboundPolicy(settings, 'mail_server')).toMatchObject({
      allowPrivate: false,
      allowlist: ['10.0.0.0/8'],
    });
    expect(outboundPolicy(settings, 'proxy').allowPrivate).toBe(false);
  });
});
