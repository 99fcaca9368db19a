// The webhook client's connections go through the outbound guard: names that resolve (or re-resolve,
// DNS rebinding) to private addresses are refused at check time and on the connected socket.
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedTargetError } from '../../lib/net/outbound.js';
import { type Receiver, startReceiver } from './receiver.test-support.js';
import { createWebhookClient } from './webhook-client.js';

describe('the guarded connector', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  /** A resolver for made-up names; `rebind.test` answers public first, then loopback. */
  function fakeDns(): LookupFunction {
    let rebindCalls = 0;
    const table: Record<string, () => string[]> = {
      'internal.test': () => ['10.0.0.5'],
      'loopback.test': () => ['127.0.0.1'],
      'mixed.test': () => ['93.184.215.14', '127.0.0.1'],
      'rebind.test': () => (rebindCalls++ === 0 ? ['93.184.215.14'] : ['127.0.0.1']),
    };
    return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      const answer = table[hostname]?.();
      if (!answer)
        return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      const addresses: LookupAddress[] = answer.map((address) => ({
        address,
        family: address.includes(':') ? 6 : 4,
      }));
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    }) as unknown as LookupFunction;
  }

  const port = () => new URL(receiver.url).port;
  const send = (client: ReturnType<typeof createWebhookClient>, url: string) =>
    client.send({
      url,
      method: 'POST',
      messageId: 'msg_1',
      secret: `whsec_${Buffer.from('secret-for-tests').toString('base64')}`,
      body: '{}',
      maxBodyBytes: 1024,
    });

  it('refuses names resolving to private addresses, at check time and at connect time', async () => {
    const client = createWebhookClient({
      timeoutMs: 2000,
      policy: { allowPrivate: false },
      lookup: fakeDns(),
    });
    try {
      for (const host of ['internal.test', 'loopback.test', 'mixed.test']) {
        await expect(client.checkTarget(`http://${host}:${port()}/hook`)).rejects.toBeInstanceOf(
          BlockedTargetError,
        );
        const result = await send(client, `http://${host}:${port()}/hook`);
        expect(result, host).toMatchObject({ statusCode: null, blocked: true });
        expect(result.error).toContain(`${host} resolves to`);
      }
      const metadata = await send(client, 'http://169.254.169.254/latest/meta-data/');
      expect(metadata).toMatchObject({ blocked: true });
      expect(metadata.error).toContain('link-local');
      expect(receiver.requests).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('refuses localhost through the system resolver', async () => {
    const client = createWebhookClient({ timeoutMs: 2000, policy: { allowPrivate: false } });
    try {
      await expect(client.checkTarget(`http://localhost:${port()}/hook`)).rejects.toBeInstanceOf(
        BlockedTargetError,
      );
      const result = await send(client, `http://localhost:${port()}/hook`);
      expect(result.blocked).toBe(true);
      expect(result.error).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
      expect(receiver.requests).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('checks the address actually connected to, so DNS rebinding after the check is refused', async () => {
    const client = createWebhookClient({
      timeoutMs: 2000,
      policy: { allowPrivate: false },
      lookup: fakeDns(),
    });
    try {
      await expect(client.checkTarget(`http://rebind.test:${port()}/hook`)).resolves.toBeInstanceOf(URL);
      const result = await send(client, `http://rebind.test:${port()}/hook`);
      expect(result.blocked).toBe(true);
      expect(result.error).toContain('rebind.test resolves to 127.0.0.1');
      expect(receiver.requests).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('connects to private addresses when they are allowed', async () => {
    const client = createWebhookClient({
      timeoutMs: 2000,
      policy: { allowPrivate: true },
      lookup: fakeDns(),
    });
    try {
      const result = await send(client, `http://loopback.test:${port()}/hook`);
      expect(result).toMatchObject({ statusCode: 200, error: null, blocked: false });
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
