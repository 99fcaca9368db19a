// A seat's proxy: what a client sends (one object or an array of one, password included), what is
// stored (the password sealed apart), what is shown (never the password) and what Chromium is given.
import net from 'node:net';
import { invalidField } from '../../lib/errors.js';
import type { OutboundGuard } from '../../lib/net/outbound.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { ProxyType, StoredProxy } from './browsers.tables.js';

export type ProxyInput = {
  type: ProxyType;
  host: string;
  port: number;
  username?: string | null;
  password?: string | null;
};

/** The columns a proxy change writes; undefined when the request did not mention the proxy. */
export function proxyColumns(
  input: ProxyInput | ProxyInput[] | null | undefined,
  box: SecretBox,
): { custom_proxy_config: string; proxy_password_sealed: string | null } | undefined {
  if (input === undefined) return undefined;
  const proxy = Array.isArray(input) ? input[0] : (input ?? undefined);
  if (!proxy) return { custom_proxy_config: '[]', proxy_password_sealed: null };
  const username = proxy.username?.trim() || null;
  if (proxy.type === 'socks5' && (username || proxy.password)) {
    throw invalidField(
      'custom_proxy_config.username',
      'custom_proxy_config: Chromium cannot authenticate to a SOCKS5 proxy; use an http(s) proxy for credentials.',
    );
  }
  if (proxy.password && !username) {
    throw invalidField('custom_proxy_config.username', 'custom_proxy_config: a password needs a username.');
  }
  const stored: StoredProxy = { type: proxy.type, host: proxy.host, port: proxy.port, username };
  return {
    custom_proxy_config: JSON.stringify([stored]),
    proxy_password_sealed: proxy.password ? box.seal(proxy.password) : null,
  };
}

export function presentProxies(row: {
  custom_proxy_config: StoredProxy[];
  proxy_password_sealed: string | null;
}) {
  return (row.custom_proxy_config ?? []).map((proxy) => ({
    type: proxy.type,
    host: proxy.host,
    port: proxy.port,
    username: proxy.username,
    has_password: row.proxy_password_sealed !== null,
  }));
}

/**
 * Playwright's proxy option for the seat, or undefined for a direct connection. Chromium is given the
 * address the outbound guard checked, so its own lookup cannot land elsewhere; an https proxy keeps its
 * name, which its certificate is checked against (that name was resolved and checked just before).
 */
export async function browserProxy(
  row: { custom_proxy_config: StoredProxy[]; proxy_password_sealed: string | null },
  box: SecretBox,
  guard: OutboundGuard,
): Promise<{ server: string; username?: string; password?: string; bypass?: string } | undefined> {
  const proxy = row.custom_proxy_config?.[0];
  if (!proxy) return undefined;
  const { address } = await guard.resolve(proxy.host);
  const host = proxy.type === 'https' ? proxy.host : net.isIPv6(address) ? `[${address}]` : address;
  return {
    server: `${proxy.type}://${host}:${proxy.port}`,
    ...(proxy.username ? { username: proxy.username } : {}),
    ...(row.proxy_password_sealed ? { password: box.openText(row.proxy_password_sealed) } : {}),
  };
}
