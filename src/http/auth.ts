// Bearer API keys and the team scope of every /<area>/api/ request. Key lookups go through the auth
// cache of the identity module (kept in step with the database by change notifications), so the hot
// path usually costs no database round trip and a revoked key is refused at once in every process.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { AppError } from '../lib/errors.js';

export type ApiKeyIdentity = { apiKeyId: number; userId: number; teamIds: number[] };

export type AuthContext = {
  apiKeyId: number;
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

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export const API_PATH = /^\/[a-z0-9-]+\/api(\/|$)/;

type AuthOptions = {
  /** The identity of a key hash (cached by the caller). */
  identify: KeyLookup;
  /** Called at most once a minute per key, off the request path. */
  touch?: (apiKeyId: number) => Promise<void>;
};

export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const { identify } = options;
  const touched = new LRUCache<number, true>({ max: 10_000, ttl: 60_000 });

  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // Route matching comes first: an unknown path or method answers 404/405 whoever asks.
    if (request.is404 || !API_PATH.test(request.url)) return;
    const header = request.headers.authorization;
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
function pickTeam(request: FastifyRequest, identity: ApiKeyIdentity): number {
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
