// Bearer API keys and the team scope of every /<area>/api/ request. The key lookup is cached for a few
// seconds (LEADFLOW_AUTH_CACHE_TTL_MS) so a revoked key stops working within that time while the hot
// path avoids a database round trip per request.
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
  lookup: KeyLookup;
  cacheTtlMs: number;
  /** Called at most once a minute per key, off the request path. */
  touch?: (apiKeyId: number) => Promise<void>;
};

export function registerAuth(app: FastifyInstance, options: AuthOptions): void {
  const cache = new LRUCache<string, ApiKeyIdentity | false>({
    max: 10_000,
    ttl: Math.max(options.cacheTtlMs, 1),
  });
  const touched = new LRUCache<number, true>({ max: 10_000, ttl: 60_000 });

  async function identify(keyHash: string): Promise<ApiKeyIdentity | undefined> {
    if (options.cacheTtlMs > 0) {
      const cached = cache.get(keyHash);
      if (cached !== undefined) return cached || undefined;
    }
    const identity = await options.lookup(keyHash);
    if (options.cacheTtlMs > 0) cache.set(keyHash, identity ?? false);
    return identity;
  }

  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!API_PATH.test(request.url)) return;
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

function pickTeam(request: FastifyRequest, identity: ApiKeyIdentity): number {
  const raw = request.headers['team-id'];
  if (raw === undefined || raw === '') {
    const first = identity.teamIds[0];
    if (first === undefined) throw new AppError('access_denied', 'This user does not belong to any team.');
    return first;
  }
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !/^\d+$/.test(value.trim())) {
    throw new AppError('bad_request', `The Team-ID header must be an integer team id (got "${value}").`, {
      'Team-ID': ['must be an integer'],
    });
  }
  const teamId = Number(value);
  if (!identity.teamIds.includes(teamId)) {
    throw new AppError('access_denied', `You are not a member of team ${teamId}.`);
  }
  return teamId;
}

/** The caller's auth context inside an API route (the hook guarantees it is there). */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError('auth_exception', 'Authentication required.');
  return request.auth;
}
