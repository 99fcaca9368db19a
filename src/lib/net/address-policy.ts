// Which addresses a connection a user can aim (webhooks, mail servers, proxies, HTTP nodes, LLMs) may
// reach, so the server does not become the user's way into the private network (SSRF): only public
// unicast addresses, unless the operator opens private networks (never link-local and cloud metadata,
// unless named one by one). Callers check the addresses a connection actually uses (outbound.ts), so a
// name that resolves to a public address at create time and to 127.0.0.1 later (DNS rebinding) is refused.
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
 * (LEADFLOW_OUTBOUND_ALLOW_PRIVATE) also loopback, private, CGNAT and unique-local ones - but never
 * link-local addresses or cloud metadata services, which only `allowlist` (LEADFLOW_OUTBOUND_ALLOWLIST:
 * CIDRs, addresses or host names) can open, one named entry at a time.
 */
export type TargetPolicy = {
  allowPrivate: boolean;
  allowlist?: readonly string[];
  /** What is refused, for messages ("webhooks", "mail servers"); default "outbound connections". */
  subject?: string;
  /** The settings that open targets for this subject, named in messages. */
  switches?: { allowPrivate: readonly string[]; allowlist: readonly string[] };
};

const OUTBOUND_SWITCHES = {
  allowPrivate: ['LEADFLOW_OUTBOUND_ALLOW_PRIVATE'],
  allowlist: ['LEADFLOW_OUTBOUND_ALLOWLIST'],
};

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

/** A connection was refused before it was made; the message says why and which setting opens it. */
export class BlockedTargetError extends Error {
  readonly code = 'ERR_OUTBOUND_TARGET_BLOCKED';
  constructor(host: string, address: string, range: string, policy: TargetPolicy) {
    const what =
      range === METADATA && !net.isIP(host)
        ? `${host} is a cloud metadata host`
        : `${host === address ? address : `${host} resolves to ${address}, which`} is a ${range} address`;
    const closed = range === LINK_LOCAL || range === METADATA;
    const switches = policy.switches ?? OUTBOUND_SWITCHES;
    const allowlists = switches.allowlist.join(' or ');
    const openPrivate = switches.allowPrivate.map((name) => `${name}=true`).join(' or ');
    const onlyPublic = `${policy.subject ?? 'outbound connections'} may only reach public addresses`;
    const stayClosed = `link-local and cloud metadata targets stay blocked unless ${allowlists} names them`;
    const hint = policy.allowPrivate
      ? closed
        ? stayClosed
        : `${allowlists} can name it`
      : closed
        ? `${onlyPublic} (${stayClosed})`
        : `${onlyPublic} (${openPrivate} lifts this)`;
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
