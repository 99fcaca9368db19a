// Webhook targets are URLs chosen by users, so the server must not become their way into the private
// network (SSRF): only public unicast addresses may be connected to. The check runs on the addresses
// a connection actually uses (in the connector's DNS lookup and on the connected socket), so a name
// that resolves to a public address at create time and to 127.0.0.1 later (DNS rebinding) is refused.
import dns, { type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

const RANGE_NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local (cloud metadata lives here)',
  carrierGradeNat: 'carrier-grade NAT',
  uniqueLocal: 'unique-local',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
};

/** Why `address` may not be connected to, or undefined when it is a public unicast address. */
export function blockedRange(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it stands for.
    parsed = ipaddr.process(address);
  } catch {
    return 'not an IP address';
  }
  const range = parsed.range();
  if (range !== 'unicast') return RANGE_NAMES[range] ?? `reserved (${range})`;
  // IPv6 outside 2000::/3 is not globally routed (IPv4-compatible ::a.b.c.d and the like).
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return 'reserved';
  return undefined;
}

export class BlockedTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_BLOCKED';
  constructor(host: string, address: string, range: string) {
    super(
      `${host === address ? address : `${host} resolves to ${address}, which`} is a ${range} address; ` +
        'webhooks may only call public addresses (LEADFLOW_WEBHOOKS_ALLOW_PRIVATE=true lifts this).',
    );
    this.name = 'BlockedTargetError';
  }
}

/** The host of a URL without IPv6 brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Throws BlockedTargetError when any of `addresses` is not public. */
export function assertPublic(host: string, addresses: string[]): void {
  for (const address of addresses) {
    const range = blockedRange(address);
    if (range) throw new BlockedTargetError(host, address, range);
  }
}

/**
 * A DNS lookup for net.connect that refuses names resolving to any non-public address (a name mixing
 * public and private answers is refused too: a connection could pick either).
 */
export function guardedLookup(base: LookupFunction = dns.lookup as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (error, result) => {
      if (error) return callback(error, '', 0);
      const addresses = (
        Array.isArray(result) ? result : [{ address: result, family: 4 }]
      ) as LookupAddress[];
      try {
        assertPublic(
          hostname,
          addresses.map((entry) => entry.address),
        );
      } catch (blocked) {
        return callback(blocked as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/** Resolves `host` (an IP literal resolves to itself) with `lookup` and returns every address. */
export function resolveHost(
  host: string,
  lookup: LookupFunction = dns.lookup as LookupFunction,
): Promise<string[]> {
  if (net.isIP(host)) return Promise.resolve([host]);
  return new Promise((resolve, reject) => {
    lookup(host, { all: true }, (error, result) => {
      if (error) return reject(error);
      resolve(Array.isArray(result) ? result.map((entry) => entry.address) : [result]);
    });
  });
}
