// A local OAuth2 identity provider that speaks the parts of Google's and Microsoft's protocol Leadflow
// uses: the authorisation-code redirect (consent is automatic: the account is `login_hint`, else the one
// set with `nextAccount`), the token endpoint (authorization_code and refresh_token grants), a userinfo
// endpoint (Google) and an id_token with `email`/`preferred_username` (Microsoft). It also answers
// token introspection for Dovecot's oauth2 passdb and `accountOf(token)` for an SMTP server, so IMAP
// and SMTP can check XOAUTH2 bearer tokens issued here. For tests, benchmarks and demos on loopback.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type Token = { account: string; expiresAt: number };

export type OAuthStandIn = {
  url: string;
  /** The account the next authorisation without login_hint consents as. */
  nextAccount(email: string): void;
  accountOf(accessToken: string): string | undefined;
  /** Expires every access token now (the next use must refresh). */
  expireAccessTokens(): void;
  /** Revokes every token of an account (a password change at the provider). */
  revoke(email: string): void;
  /** Calls of the token endpoint, by grant type. */
  grants: Record<string, number>;
  close(): Promise<void>;
};

function token(prefix: string) {
  return `${prefix}.${randomBytes(18).toString('base64url')}`;
}

function unsignedJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

async function formBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startOAuthStandIn(
  options: { clientId?: string; clientSecret?: string; accessTtlSeconds?: number } = {},
): Promise<OAuthStandIn> {
  const ttl = options.accessTtlSeconds ?? 3600;
  const codes = new Map<string, { account: string; redirectUri: string }>();
  const access = new Map<string, Token>();
  const refresh = new Map<string, string>();
  const grants: Record<string, number> = {};
  let next = 'user@oauth.test';

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const issue = (account: string) => {
    const accessToken = token('at');
    access.set(accessToken, { account, expiresAt: Date.now() + ttl * 1000 });
    return accessToken;
  };
  const clientOk = (form: URLSearchParams) =>
    (!options.clientId || form.get('client_id') === options.clientId) &&
    (!options.clientSecret || form.get('client_secret') === options.clientSecret);

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri');
      if (!redirectUri || url.searchParams.get('response_type') !== 'code') {
        return json(res, 400, { error: 'invalid_request' });
      }
      const account = url.searchParams.get('login_hint') || next;
      const code = token('code');
      codes.set(code, { account, redirectUri });
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      const state = url.searchParams.get('state');
      if (state) target.searchParams.set('state', state);
      res.writeHead(302, { location: target.toString() });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = await formBody(req);
      const grant = form.get('grant_type') ?? '';
      grants[grant] = (grants[grant] ?? 0) + 1;
      if (!clientOk(form)) return json(res, 401, { error: 'invalid_client' });
      if (grant === 'authorization_code') {
        const entry = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!entry || entry.redirectUri !== form.get('redirect_uri'))
          return json(res, 400, { error: 'invalid_grant' });
        const refreshToken = token('rt');
        refresh.set(refreshToken, entry.account);
        return json(res, 200, {
          access_token: issue(entry.account),
          refresh_token: refreshToken,
          expires_in: ttl,
          token_type: 'Bearer',
          id_token: unsignedJwt({ email: entry.account, preferred_username: entry.account }),
        });
      }
      if (grant === 'refresh_token') {
        const account = refresh.get(form.get('refresh_token') ?? '');
        if (!account)
          return json(res, 400, { error: 'invalid_grant', error_description: 'Token has been revoked.' });
        return json(res, 200, { access_token: issue(account), expires_in: ttl, token_type: 'Bearer' });
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    if (url.pathname === '/userinfo') {
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      const entry = access.get(bearer);
      if (!entry || entry.expiresAt < Date.now()) return json(res, 401, { error: 'invalid_token' });
      return json(res, 200, { email: entry.account, email_verified: true });
    }
    if (req.method === 'POST' && url.pathname === '/introspect') {
      const form = await formBody(req);
      const entry = access.get(form.get('token') ?? '');
      if (!entry || entry.expiresAt < Date.now()) return json(res, 200, { active: false });
      return json(res, 200, { active: true, username: entry.account });
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    nextAccount(email) {
      next = email;
    },
    accountOf(accessToken) {
      const entry = access.get(accessToken);
      return entry && entry.expiresAt >= Date.now() ? entry.account : undefined;
    },
    expireAccessTokens() {
      for (const entry of access.values()) entry.expiresAt = 0;
    },
    revoke(email) {
      for (const [key, entry] of access) if (entry.account === email) access.delete(key);
      for (const [key, account] of refresh) if (account === email) refresh.delete(key);
    },
    grants,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
