// The HTTP side of webhooks (and of gs_call_api nodes): one pooled undici Agent per process whose
// connector refuses what the outbound guard refuses (src/lib/net/outbound.ts), Standard Webhooks signing, a hard timeout, no redirects, and a response read that stops
// at a byte limit so a huge or endless body cannot hold a worker.
import type { LookupFunction } from 'node:net';
import { LRUCache } from 'lru-cache';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import {
  BlockedTargetError,
  bareHost,
  blockedCause,
  outboundGuard,
  resolveHost,
  type TargetPolicy,
} from '../../lib/net/outbound.js';
import { version } from '../../version.js';
import type { RequestMethod } from './webhooks.tables.js';

export type WebhookClientOptions = {
  timeoutMs: number;
  /** Which targets may be called: `outboundPolicy(config, 'webhook' | 'http_node')`. */
  policy: TargetPolicy;
  /** DNS lookup used for connections and target checks (tests map names with it). */
  lookup?: LookupFunction;
  /** Sockets per target origin. */
  connections?: number;
};

export type SignedRequest = {
  url: string;
  method: RequestMethod;
  /** The webhook-id header: the event uuid, the same on every attempt so receivers can deduplicate. */
  messageId: string;
  secret: string;
  /** During a secret rotation: a second signature, made with the previous secret. */
  previousSecret?: string | null;
  body: string;
  /** Bytes of the response body to keep; the rest is discarded. */
  maxBodyBytes: number;
};

export type WebhookResponse = {
  statusCode: number | null;
  headers: Record<string, string>;
  body: string;
  bodyTruncated: boolean;
  durationMs: number;
  /** Why no 2xx came back: transport error, timeout, refused target or the HTTP status. */
  error: string | null;
  /** The target was refused by the private-address guard. */
  blocked: boolean;
};

export class InvalidTargetError extends Error {}

/** Parses a target URL; only absolute http(s) URLs without credentials are accepted. */
export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidTargetError('target_url must be an absolute http:// or https:// URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidTargetError(`target_url must use http or https (got ${url.protocol.replace(':', '')}).`);
  }
  if (url.username || url.password) {
    throw new InvalidTargetError(
      'target_url must not carry credentials; verify the webhook signature instead.',
    );
  }
  return url;
}

function describeError(error: unknown, timeoutMs: number): string {
  const err = error as Error & { code?: string; cause?: unknown };
  if (err instanceof BlockedTargetError) return err.message;
  if (
    err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    err.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    err.code === 'UND_ERR_BODY_TIMEOUT' ||
    err.code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return `No response within ${timeoutMs} ms`;
  }
  if (err.cause instanceof Error) return describeError(err.cause, timeoutMs);
  return err.code && !err.message.includes(err.code) ? `${err.message} (${err.code})` : err.message;
}

export function createWebhookClient(options: WebhookClientOptions) {
  const { timeoutMs } = options;
  const guard = outboundGuard(options.policy, options.lookup ? { lookup: options.lookup } : {});
  const agent = guard.dispatcher({ timeoutMs, connections: options.connections ?? 128 });
  // Decoding a base64 secret per delivery is wasted work; the same few webhooks sign all day.
  const signers = new LRUCache<string, Webhook>({ max: 1000 });

  function sign(secret: string, messageId: string, timestamp: Date, body: string): string {
    let signer = signers.get(secret);
    if (!signer) {
      signer = new Webhook(secret);
      signers.set(secret, signer);
    }
    return signer.sign(messageId, timestamp, body);
  }

  /**
   * Sends one request through the guarded agent (no redirects, hard timeout, bounded body); never
   * throws for transport or HTTP failures.
   */
  async function call(outgoing: {
    url: string;
    method: string;
    headers: Record<string, string>;
    body?: string;
    maxBodyBytes: number;
  }): Promise<WebhookResponse> {
    const started = performance.now();
    const result: WebhookResponse = {
      statusCode: null,
      headers: {},
      body: '',
      bodyTruncated: false,
      durationMs: 0,
      error: null,
      blocked: false,
    };
    try {
      const response = await request(outgoing.url, {
        dispatcher: agent,
        method: outgoing.method as RequestMethod,
        headers: { 'user-agent': `Leadflow/${version}`, ...outgoing.headers },
        ...(outgoing.body === undefined ? {} : { body: outgoing.body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      result.statusCode = response.statusCode;
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) result.headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        chunks.push(buffer.subarray(0, Math.max(0, outgoing.maxBodyBytes - size)));
        size += buffer.length;
        // Leaving the loop destroys the rest of the body (and that socket).
        if (size > outgoing.maxBodyBytes) {
          result.bodyTruncated = true;
          break;
        }
      }
      result.body = Buffer.concat(chunks).toString('utf8');
      if (response.statusCode < 200 || response.statusCode > 299) {
        result.error = `HTTP ${response.statusCode}${result.body ? `: ${result.body.slice(0, 300)}` : ''}`;
      }
    } catch (error) {
      result.error = describeError(error, timeoutMs);
      result.blocked = blockedCause(error) !== undefined;
    }
    result.durationMs = Math.round(performance.now() - started);
    return result;
  }

  return {
    call,

    /**
     * Refuses a malformed URL (InvalidTargetError) or one whose host is or resolves to an address the
     * guard refuses. With private targets allowed, a name that does not resolve yet is accepted (every
     * connection is checked again anyway), as it was before link-local addresses were singled out.
     */
    async checkTarget(raw: string): Promise<URL> {
      const url = parseTargetUrl(raw);
      const host = bareHost(url.hostname);
      guard.assertHostAllowed(host);
      let addresses: string[];
      try {
        addresses = await resolveHost(host, options.lookup);
      } catch (error) {
        if (!options.policy.allowPrivate) {
          throw new InvalidTargetError(
            `target_url host ${host} could not be resolved (${(error as { code?: string }).code ?? 'DNS error'}).`,
          );
        }
        addresses = [];
      }
      if (addresses.length === 0) guard.assertHostAllowed(host);
      else guard.assertAllowed(host, addresses);
      return url;
    },

    /** Sends one signed webhook request; never throws for transport or HTTP failures. */
    send(signed: SignedRequest): Promise<WebhookResponse> {
      const timestamp = new Date();
      return call({
        url: signed.url,
        method: signed.method,
        headers: {
          'content-type': 'application/json',
          'user-agent': `Leadflow-Webhooks/${version}`,
          'webhook-id': signed.messageId,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          // Standard Webhooks: space-separated signatures; a receiver accepts any one it can verify.
          'webhook-signature': [signed.secret, ...(signed.previousSecret ? [signed.previousSecret] : [])]
            .map((secret) => sign(secret, signed.messageId, timestamp, signed.body))
            .join(' '),
        },
        body: signed.body,
        maxBodyBytes: signed.maxBodyBytes,
      });
    },

    close: () => agent.close(),
  };
}

export type WebhookClient = ReturnType<typeof createWebhookClient>;
