// The private-address guard on its own: range classification, and the real undici connector refusing
// names that resolve (or re-resolve, DNS rebinding) to private addresses.
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from './receiver.test-support.js';
import {
  allowlistEntryProblem,
  BlockedTargetError,
  blockedRange,
  type TargetPolicy,
  targetGuard,
} from './ssrf.js';
import { createWebhookClient } from './webhook-client.js';

describe('blockedRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata lives here)'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local (cloud metadata lives here)'],
    ['fd00:ec2::254', 'unique-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local (cloud metadata lives here)'],
    ['::7f00:1', 'reserved'],
    ['64:ff9b::7f00:1', 'reserved (rfc6052)'],
    ['2002:7f00:1::', 'reserved (6to4)'],
  ])('refuses %s (%s)', (address, range) => {
    expect(blockedRange(address)).toBe(range);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(blockedRange(address)).toBeUndefined();
  });
});

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
    const client = createWebhookClient({ timeoutMs: 2000, allowPrivateTargets: false, lookup: fakeDns() });
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
    const client = createWebhookClient({ timeoutMs: 2000, allowPrivateTargets: false });
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
    const client = createWebhookClient({ timeoutMs: 2000, allowPrivateTargets: false, lookup: fakeDns() });
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
    const client = createWebhookClient({ timeoutMs: 2000, allowPrivateTargets: true, lookup: fakeDns() });
    try {
      const result = await send(client, `http://loopback.test:${port()}/hook`);
      expect(result).toMatchObject({ statusCode: 200, error: null, blocked: false });
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});

describe('the target policy', () => {
  const refused = (policy: TargetPolicy, host: string, address = host) => {
    try {
      targetGuard(policy).assertAllowed(host, [address]);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(BlockedTargetError);
      return (error as Error).message;
    }
  };
  const privateOk: TargetPolicy = { allowPrivate: true };

  it.each([['127.0.0.1'], ['10.0.0.5'], ['192.168.1.20'], ['100.64.0.1'], ['fd12::1'], ['::1']])(
    'opens %s with allowPrivate',
    (address) => {
      expect(refused(privateOk, address)).toBeUndefined();
      expect(refused({ allowPrivate: false }, address)).toContain('LEADFLOW_WEBHOOKS_ALLOW_PRIVATE=true');
    },
  );

  it.each([
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['100.100.100.200', 'cloud metadata'],
  ])('keeps %s closed with allowPrivate (%s)', (address, kind) => {
    const message = refused(privateOk, address);
    expect(message).toContain(kind);
    expect(message).toContain('unless LEADFLOW_WEBHOOKS_ALLOWLIST names them');
  });

  it('keeps cloud metadata host names closed whatever they resolve to', () => {
    for (const host of [
      'metadata.google.internal',
      'METADATA.google.internal.',
      'metadata',
      'instance-data',
    ]) {
      expect(refused(privateOk, host, '10.0.0.7'), host).toContain(`${host} is a cloud metadata host`);
      expect(() => targetGuard(privateOk).assertHostAllowed(host)).toThrow(BlockedTargetError);
    }
    expect(refused(privateOk, 'receiver.lan', '10.0.0.7')).toBeUndefined();
  });

  it('opens exactly what the allowlist names: CIDRs, addresses and host names', () => {
    const policy: TargetPolicy = {
      allowPrivate: false,
      allowlist: ['169.254.10.0/24', '10.1.2.3', 'fe80::/10', 'metadata.google.internal', 'hooks.corp'],
    };
    expect(refused(policy, '169.254.10.9')).toBeUndefined();
    expect(refused(policy, '169.254.169.254')).toContain('link-local');
    expect(refused(policy, '10.1.2.3')).toBeUndefined();
    expect(refused(policy, '::ffff:10.1.2.3')).toBeUndefined();
    expect(refused(policy, '10.1.2.4')).toContain('private');
    expect(refused(policy, 'fe80::abcd')).toBeUndefined();
    expect(refused(policy, 'metadata.google.internal', '169.254.169.254')).toBeUndefined();
    expect(refused(policy, 'hooks.corp', '10.9.9.9')).toBeUndefined();
    expect(refused(policy, 'other.corp', '10.9.9.9')).toContain('private');
  });

  it('says which allowlist entries it cannot read', () => {
    expect(allowlistEntryProblem('10.0.0.0/8')).toBeUndefined();
    expect(allowlistEntryProblem('fd00::/8')).toBeUndefined();
    expect(allowlistEntryProblem('169.254.169.254')).toBeUndefined();
    expect(allowlistEntryProblem('receiver.lan')).toBeUndefined();
    expect(allowlistEntryProblem('10.0.0.0/33')).toContain('not a CIDR range');
    expect(allowlistEntryProblem('http://x')).toContain('neither an IP address');
  });
});
