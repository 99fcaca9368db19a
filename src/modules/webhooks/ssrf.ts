// Webhook targets are URLs chosen by users, so the server must not become their way into the private
// network (SSRF): only public unicast addresses may be connected to, unless the operator opens private
// networks (never link-local and cloud metadata, unless named one by one). The check runs on the addresses
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

/**
 * Which targets a process may call. Public unicast addresses always; with `allowPrivate`
 * (LEADFLOW_WEBHOOKS_ALLOW_PRIVATE) also loopback, private, CGNAT and unique-local ones - but never
 * link-local addresses or cloud metadata services, which only `allowlist` (LEADFLOW_WEBHOOKS_ALLOWLIST:
 * CIDRs, addresses or host names) can open, one named entry at a time.
 */
export type TargetPolicy = { allowPrivate: boolean; allowlist?: readonly string[] };

/** Cloud metadata services outside the link-local range (AWS over IPv6, Alibaba Cloud). */
const METADATA_ADDRESSES = ['fd00:ec2::254', '100.100.100.200'].map((address) =>
  ipaddr.parse(address).toString(),
);

/** Host names of cloud metadata services (they resolve to link-local addresses on those clouds). */
export const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/i;

/** Why an allowlist entry cannot be read, or undefined when it is a CIDR, an address or a host name. */
export function allowlistEntryProblem(entry: string): string | undefined {
  const [base = '', bits, ...rest] = entry.split('/');
  if (bits !== undefined && rest.length === 0 && ipaddr.isValid(base) && /^\d+$/.test(bits)) {
    try {
      ipaddr.parseCIDR(entry);
      return undefined;
    } catch {
      return `"${entry}" is not a CIDR range like 10.0.0.0/8 or fd00::/8`;
    }
  }
  if (bits === undefined && (ipaddr.isValid(entry) || HOST_NAME.test(entry))) return undefined;
  return `"${entry}" is neither an IP address, a CIDR range nor a host name`;
}

type Matcher = { hosts: Set<string>; ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> };

const normalHost = (host: string) => host.toLowerCase().replace(/\.$/, '');

function matcherOf(allowlist: readonly string[] = []): Matcher {
  const matcher: Matcher = { hosts: new Set(), ranges: [] };
  for (const entry of allowlist.map((item) => item.trim()).filter(Boolean)) {
    if (entry.includes('/')) matcher.ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.process(entry);
      matcher.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else matcher.hosts.add(normalHost(entry));
  }
  return matcher;
}

function inRanges(address: string, ranges: Matcher['ranges']): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return false;
  }
  return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
}

const LINK_LOCAL = RANGE_NAMES.linkLocal!;
const METADATA = 'cloud metadata';

export class BlockedTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_BLOCKED';
  constructor(host: string, address: string, range: string, policy: TargetPolicy) {
    const what =
      range === METADATA && !net.isIP(host)
        ? `${host} is a cloud metadata host`
        : `${host === address ? address : `${host} resolves to ${address}, which`} is a ${range} address`;
    const closed = range === LINK_LOCAL || range === METADATA;
    const hint = policy.allowPrivate
      ? closed
        ? 'link-local and cloud metadata targets stay blocked unless LEADFLOW_WEBHOOKS_ALLOWLIST names them'
        : 'LEADFLOW_WEBHOOKS_ALLOWLIST can name it'
      : closed
        ? 'webhooks may only call public addresses (link-local and cloud metadata targets stay blocked unless LEADFLOW_WEBHOOKS_ALLOWLIST names them)'
        : 'webhooks may only call public addresses (LEADFLOW_WEBHOOKS_ALLOW_PRIVATE=true lifts this)';
    super(`${what}; ${hint}.`);
    this.name = 'BlockedTargetError';
  }
}

/** The guard of one process: refuses hosts and addresses the policy does not allow. */
export function targetGuard(policy: TargetPolicy) {
  const allowed = matcherOf(policy.allowlist);

  /** Why `address` (reached as `host`) may not be called, or undefined when it may. */
  function refusal(host: string, address: string): string | undefined {
    if (allowed.hosts.has(normalHost(host)) || inRanges(address, allowed.ranges)) return undefined;
    if (METADATA_HOSTS.has(normalHost(host))) return METADATA;
    const range = blockedRange(address);
    if (!range || !policy.allowPrivate) return range;
    if (range === LINK_LOCAL) return range;
    let canonical: string;
    try {
      canonical = ipaddr.process(address).toString();
    } catch {
      return range;
    }
    return METADATA_ADDRESSES.includes(canonical) ? METADATA : undefined;
  }

  return {
    /** Throws BlockedTargetError when the host name itself is refused (a cloud metadata name). */
    assertHostAllowed(host: string): void {
      if (!allowed.hosts.has(normalHost(host)) && METADATA_HOSTS.has(normalHost(host))) {
        throw new BlockedTargetError(host, host, METADATA, policy);
      }
    },

    /** Throws BlockedTargetError when `host` or any of its `addresses` may not be called. */
    assertAllowed(host: string, addresses: string[]): void {
      for (const address of addresses) {
        const range = refusal(host, address);
        if (range) throw new BlockedTargetError(host, address, range, policy);
      }
    },
  };
}

export type TargetGuard = ReturnType<typeof targetGuard>;

/** The host of a URL without IPv6 brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * A DNS lookup for net.connect that refuses names resolving to any address the guard refuses (a name
 * mixing allowed and refused answers is refused too: a connection could pick either).
 */
export function guardedLookup(
  guard: TargetGuard,
  base: LookupFunction = dns.lookup as LookupFunction,
): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (error, result) => {
      if (error) return callback(error, '', 0);
      const addresses = (
        Array.isArray(result) ? result : [{ address: result, family: 4 }]
      ) as LookupAddress[];
      try {
        guard.assertAllowed(
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
