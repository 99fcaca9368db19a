// The one way to open a connection a user can aim - webhooks, `gs_call_api`, SMTP and IMAP servers of
// mailboxes, seat proxies, LLM endpoints: `outboundGuard(policy)` resolves the name, checks every address
// against the policy (address-policy.ts) and hands back the checked address to connect to, so a second DNS
// answer (rebinding) cannot slip a private address in between the check and the connection. HTTP
// clients take its `dispatcher` (undici) or `fetch`; socket clients (nodemailer, imapflow) take
// `resolve(host)` and connect to `address` with `servername` for TLS.
import dns, { type LookupAddress } from 'node:dns';
import type { LookupFunction, Socket } from 'node:net';
import net from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { BlockedTargetError, type TargetPolicy, targetGuard } from './address-policy.js';

export { BlockedTargetError, type TargetPolicy } from './address-policy.js';

/** What a connection is for: names the refused thing in messages and picks the settings that open it. */
export type OutboundKind = 'webhook' | 'http_node' | 'mail_server' | 'proxy' | 'llm';

/** The operator's switches (config.ts): the outbound ones for every kind, the webhook ones for HTTP calls. */
export type OutboundSettings = {
  outbound: { allowPrivate: boolean; allowlist: readonly string[] };
  webhooks: { allowPrivateTargets: boolean; allowlist?: readonly string[] | undefined };
};

const SUBJECTS: Record<OutboundKind, string> = {
  webhook: 'webhooks',
  http_node: 'gs_call_api requests',
  mail_server: 'mail servers',
  proxy: 'proxies',
  llm: 'LLM endpoints',
};

/**
 * The policy of one kind of connection. LEADFLOW_OUTBOUND_* open every kind; the older
 * LEADFLOW_WEBHOOKS_* switches keep opening what they opened before: webhooks and `gs_call_api` calls.
 */
export function outboundPolicy(settings: OutboundSettings, kind: OutboundKind): TargetPolicy {
  const http = kind === 'webhook' || kind === 'http_node';
  return {
    allowPrivate: settings.outbound.allowPrivate || (http && settings.webhooks.allowPrivateTargets),
    allowlist: [...settings.outbound.allowlist, ...(http ? (settings.webhooks.allowlist ?? []) : [])],
    subject: SUBJECTS[kind],
    switches: {
      allowPrivate: [...(http ? ['LEADFLOW_WEBHOOKS_ALLOW_PRIVATE'] : []), 'LEADFLOW_OUTBOUND_ALLOW_PRIVATE'],
      allowlist: [...(http ? ['LEADFLOW_WEBHOOKS_ALLOWLIST'] : []), 'LEADFLOW_OUTBOUND_ALLOWLIST'],
    },
  };
}

/** The host of a URL without IPv6 brackets. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
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

/** A checked target: connect to `address`; present `servername` (the name, unless it was an IP) in TLS. */
export type CheckedTarget = { host: string; address: string; servername: string | undefined };

export type OutboundGuard = ReturnType<typeof outboundGuard>;

/**
 * The guard of one kind of connection. `lookup` replaces the system resolver (tests map made-up names).
 */
export function outboundGuard(policy: TargetPolicy, options: { lookup?: LookupFunction } = {}) {
  const guard = targetGuard(policy);
  const baseLookup = options.lookup ?? (dns.lookup as LookupFunction);

  /**
   * A DNS lookup for net.connect that refuses names resolving to any address the guard refuses (a name
   * mixing allowed and refused answers is refused too: a connection could pick either).
   */
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    baseLookup(hostname, { ...lookupOptions, all: true }, (error, result) => {
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
      if (lookupOptions.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };

  /** An undici connector: IP literals are checked up front, names in the lookup, and the peer once more. */
  function connector(timeoutMs: number): buildConnector.connector {
    const baseConnect = buildConnector({ timeout: timeoutMs, lookup });
    return (connectOptions, callback) => {
      const host = bareHost(connectOptions.hostname);
      if (net.isIP(host)) {
        try {
          guard.assertAllowed(host, [host]);
        } catch (error) {
          callback(error as Error, null);
          return;
        }
      }
      baseConnect(connectOptions, (...args) => {
        const [error, socket] = args;
        if (error || !socket) return callback(error ?? new Error('connection failed'), null);
        try {
          guard.assertAllowed(host, [(socket as Socket | TLSSocket).remoteAddress ?? 'unknown']);
        } catch (blocked) {
          socket.destroy();
          return callback(blocked as Error, null);
        }
        callback(null, socket);
      });
    };
  }

  /**
   * Resolves `host` and checks every address it has; answers the first one to connect to. Throws
   * BlockedTargetError when one is refused, or the resolver's error (ENOTFOUND...).
   */
  async function resolve(host: string): Promise<CheckedTarget> {
    const name = bareHost(host.trim());
    guard.assertHostAllowed(name);
    const addresses = await resolveHost(name, baseLookup);
    guard.assertAllowed(name, addresses);
    const address = addresses[0];
    if (!address) throw Object.assign(new Error(`${name} has no address`), { code: 'ENOTFOUND' });
    return { host: name, address, servername: net.isIP(name) ? undefined : name };
  }

  /** An undici dispatcher whose every connection is checked (pass as `dispatcher`). */
  function dispatcher(settings: { timeoutMs: number; connections?: number }): Agent {
    return new Agent({
      connect: connector(settings.timeoutMs),
      connections: settings.connections ?? 128,
      keepAliveTimeout: 4_000,
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
  }

  return {
    policy,
    lookup,
    connector,

    /** Throws BlockedTargetError when `host` or any of its `addresses` may not be reached. */
    assertAllowed: guard.assertAllowed,

    /** Throws BlockedTargetError when the host name itself is refused (a cloud metadata name). */
    assertHostAllowed: guard.assertHostAllowed,

    resolve,
    /**
     * Like `resolve`, for checking a setting when it is saved: a refused target throws
     * BlockedTargetError; a name that does not resolve (yet) passes, as every connection is checked again.
     */
    async check(host: string): Promise<void> {
      try {
        await resolve(host);
      } catch (error) {
        if (error instanceof BlockedTargetError) throw error;
      }
    },

    dispatcher,

    /**
     * `fetch` through a guarded dispatcher, for SDKs that take a fetch (`new OpenAI({ fetch })`); a refused
     * target rejects with a TypeError whose `cause` is the BlockedTargetError.
     */
    fetch(settings: { timeoutMs: number }): typeof globalThis.fetch {
      const guarded = dispatcher(settings);
      return ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
        undiciFetch(input, { ...init, dispatcher: guarded })) as unknown as typeof globalThis.fetch;
    },
  };
}

/** The refusal inside an error chain (undici wraps connector errors), if any. */
export function blockedCause(error: unknown): BlockedTargetError | undefined {
  let current = error as { cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof BlockedTargetError) return current;
    current = current.cause as { cause?: unknown } | undefined;
  }
  return undefined;
}
