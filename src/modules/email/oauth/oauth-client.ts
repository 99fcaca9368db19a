// The OAuth2 authorisation-code flow against Google or Microsoft (or the local stand-in, which speaks
// the same protocol): the consent URL, the code exchange, refreshing an access token, and which
// account consented (Google's userinfo endpoint; Microsoft's id_token claims).
import type { OAuthProviderConfig } from '../../../config.js';
import { MailFailure } from '../transport/mail-errors.js';

export type OAuthProvider = 'gmail' | 'outlook';

export type TokenAnswer = {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  id_token?: string;
};

const TIMEOUT_MS = 15_000;

export function authorizationUrl(
  provider: OAuthProviderConfig,
  options: { redirectUri: string; state: string; loginHint?: string },
): string {
  const url = new URL(provider.authUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', provider.clientId ?? '');
  url.searchParams.set('redirect_uri', options.redirectUri);
  url.searchParams.set('scope', provider.scopes.join(' '));
  url.searchParams.set('state', options.state);
  // A refresh token every time (Google sends one only with offline access and a fresh consent).
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  if (options.loginHint) url.searchParams.set('login_hint', options.loginHint);
  return url.toString();
}

async function tokenRequest(
  provider: OAuthProviderConfig,
  form: Record<string, string>,
): Promise<TokenAnswer> {
  let response: Response;
  try {
    response = await fetch(provider.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        ...form,
        client_id: provider.clientId ?? '',
        client_secret: provider.clientSecret ?? '',
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new MailFailure('transient', `the token endpoint did not answer: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => ({}))) as TokenAnswer & {
    error?: string;
    error_description?: string;
  };
  if (!response.ok || !body.access_token) {
    const why = [body.error, body.error_description].filter(Boolean).join(': ') || `HTTP ${response.status}`;
    // invalid_grant: the refresh token was revoked or expired; only a new consent helps.
    throw new MailFailure(response.status >= 500 ? 'transient' : 'auth', `token request refused: ${why}`);
  }
  return body;
}

export function exchangeCode(provider: OAuthProviderConfig, code: string, redirectUri: string) {
  return tokenRequest(provider, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
}

export function refreshAccessToken(provider: OAuthProviderConfig, refreshToken: string) {
  return tokenRequest(provider, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

function idTokenClaims(idToken: string | undefined): Record<string, unknown> {
  const part = idToken?.split('.')[1];
  if (!part) return {};
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * The address of the account that consented. The id_token came straight from the token endpoint over
 * TLS, so its claims are trusted without checking its signature (OpenID Connect Core 3.1.3.7).
 */
export async function accountEmail(provider: OAuthProviderConfig, tokens: TokenAnswer): Promise<string> {
  const claims = idTokenClaims(tokens.id_token);
  const fromClaims = (claims.email ?? claims.preferred_username ?? claims.upn) as string | undefined;
  if (fromClaims?.includes('@')) return fromClaims.toLowerCase();
  if (provider.userinfoUrl) {
    const response = await fetch(provider.userinfoUrl, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => ({}))) as { email?: string };
    if (response.ok && body.email) return body.email.toLowerCase();
  }
  throw new MailFailure('auth', 'the provider did not say which account consented (no e-mail claim)');
}
