// Bearer API keys and the team scope of every /<area>/api/ request. Key lookups go through the auth
// cache of the identity module (kept in step with the database by change notifications), so the hot
// path usually costs no database round trip and a revoked key is refused at once in every process.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { AppError } from '../lib/errors.js';

export type ApiKeyIdentity = { apiKeyId: number; userId: number; teamIds: number[] };

export type AuthContext = {
  /** The API key of the request; null when a browser session signed it. */
  apiKeyId: number | null;
  userId: number;
  /** The team every read and write of this request is scoped to. */
  teamId: number;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export type KeyLookup = (keyHash: string) => Promise<ApiKeyIdentity | undefined>;

/** The web application's session cookie (httpOnly; see modules/accounts). */
export const SESSION_COOKIE = 'lf_session';
/** Header carrying the session's CSRF token on every state-changing request a session signs. */
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type SessionLookup = (
  token: string,
) => Promise<{ userId: number; teamIds: number[]; csrfToken: string } | undefined>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An API route anyone may call (sign-in, password links, invites): no key or session needed. */
    publicRoute?: boolean;
    /** Only owners of the request's team may call it (API keys, webhooks). */
    ownerOnly?: boolean;
  }
}

function sameSecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** API paths: `/<area>/api/...`, and `/<area>/c1/api/...` (the hosted service's internal aliases). */
export const API_PATH = /^\/[a-z0-9-]+(\/c1)?\/api(\/|$)/;

type AuthOptions = {
  /** The identity of a key hash (cached by the caller). */
  identify: KeyLookup;
  /** Called at most once a minute per key, off the request path. */
  touch?: (apiKeyId: number) => Promise<void>;
  /** The session of a session cookie value; requests without an Authorization header may use one. */
  identifySession?: SessionLookup;
  /** Refuses (403) a user who is not an owner of the team; routes with `config.ownerOnly` call it. */
  requireOwner?: (userId: number, teamId: number) => Promise<void>;
};

export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const { identify } = options;
  const touched = new LRUCache<number, true>({ max: 10_000, ttl: 60_000 });

  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // Route matching comes first: an unknown path or method answers 404/405 whoever asks.
    if (request.is404 || !API_PATH.test(request.url)) return;
    if (request.routeOptions.config.publicRoute) return;
    const header = request.headers.authorization;
    const sessionToken = header === undefined ? request.cookies?.[SESSION_COOKIE] : undefined;
    if (sessionToken && options.identifySession) {
      const session = await options.identifySession(sessionToken);
      if (session) {
        // A session is the browser's: a state-changing call must also carry the session's CSRF token,
        // which only our own pages can read (GET /id/api/sessions/current answers it).
        if (
          !SAFE_METHODS.has(request.method) &&
          !sameSecret(request.headers[CSRF_HEADER], session.csrfToken)
        ) {
          throw new AppError('access_denied', `Send the session's CSRF token in the ${CSRF_HEADER} header.`);
        }
        request.auth = { apiKeyId: null, userId: session.userId, teamId: pickTeam(request, session) };
        return;
      }
      throw new AppError('auth_exception', 'Your session has ended; sign in again.');
    }
    const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
    if (!match?.[1]) {
      throw new AppError('auth_exception', 'Send your API key as "Authorization: Bearer <key>".');
    }
    const identity = await identify(hashApiKey(match[1]));
    if (!identity) throw new AppError('auth_exception', 'The API key is invalid or has been revoked.');
    request.auth = {
      apiKeyId: identity.apiKeyId,
      userId: identity.userId,
      teamId: pickTeam(request, identity),
    };
    if (options.touch && !touched.has(identity.apiKeyId)) {
      touched.set(identity.apiKeyId, true);
      options
        .touch(identity.apiKeyId)
        .catch((error) => request.log.warn({ err: error }, 'api key touch failed'));
    }
  });
  const { requireOwner } = options;
  if (requireOwner) {
    // Before body validation: a member learns nothing about the body of a call they may not make.
    app.addHook('preValidation', async (request) => {
      if (request.auth && request.routeOptions.config.ownerOnly)
        await requireOwner(request.auth.userId, request.auth.teamId);
    });
  }
}

/** Team ids are bigint in the database; a larger number cannot name a team. */
const MAX_TEAM_ID = 9223372036854775807n;
const TEAM_ID_RULE = 'must be a positive integer team id';

function badTeamId(raw: string, rule: string): AppError {
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}...` : raw;
  return new AppError(
    'bad_request',
    `The Team-ID header ${rule} (got "${shown}"); leave it out for your default team.`,
    {
      'Team-ID': [rule],
    },
  );
}

/** The team of the request: the Team-ID header, or the user's first team when it is absent or empty. */
function pickTeam(request: FastifyRequest, identity: { teamIds: number[] }): number {
  const header = request.headers['team-id'];
  const raw = (Array.isArray(header) ? header.join(', ') : (header ?? '')).trim();
  if (raw === '') {
    const first = identity.teamIds[0];
    if (first === undefined) throw new AppError('access_denied', 'This user does not belong to any team.');
    return first;
  }
  if (!/^\d+$/.test(raw)) throw badTeamId(raw, TEAM_ID_RULE);
  // Digits only: BigInt reads any length exactly (Number would print 1e+23).
  const value = BigInt(raw);
  if (value < 1n) throw badTeamId(raw, TEAM_ID_RULE);
  if (value > MAX_TEAM_ID) throw badTeamId(raw, `${TEAM_ID_RULE} no larger than ${MAX_TEAM_ID}`);
  const teamId = identity.teamIds.find((id) => BigInt(id) === value);
  if (teamId === undefined) throw new AppError('access_denied', `You are not a member of team ${value}.`);
  return teamId;
}

/** The caller's auth context inside an API route (the hook guarantees it is there). */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('auth_exception', 'Authentication required.');
  return request.auth;
}
