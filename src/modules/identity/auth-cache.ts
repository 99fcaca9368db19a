// What an API process remembers about API keys, browser sessions and users, so a request does not cost a
// database round trip to authenticate. It is only trusted while this process hears the change notifications of
// migration 0420 (`leadflow_auth`, sent by triggers in the changing transaction): a revoked key, a new
// membership, a changed user or an ended session (migration 1280) drops the entries of that user in every
// process at once. While the
// LISTEN connection is down nothing is cached (every request reads the database), and when it is back
// everything cached before is dropped, because notifications may have been missed in between.
// LEADFLOW_AUTH_CACHE_TTL_MS still bounds how long an entry lives.
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { type ListenerHandle, startListener } from '../../db/listener.js';
import type { ApiKeyIdentity } from '../../http/auth.js';

export const AUTH_CHANNEL = 'leadflow_auth';

/** A change of migration 0420's triggers: whose keys and memberships changed, and which key. */
export type AuthChange = { user_id?: number | null; key_hash?: string | null };

export type CachedUser = { id: number } & Record<string, unknown>;
/** A browser session as its lookup answers it (the caller may move its expiry forward in place). */
export type CachedSession = { userId: number };

export function createAuthCache(options: { ttlMs: number; max?: number }) {
  const enabled = options.ttlMs > 0;
  const ttl = Math.max(options.ttlMs, 1);
  const max = options.max ?? 10_000;
  const keys = new LRUCache<string, ApiKeyIdentity | false>({ max, ttl });
  const users = new LRUCache<number, CachedUser>({ max, ttl });
  const sessions = new LRUCache<string, CachedSession | false>({ max, ttl });
  let live = false;
  // Bumped by every invalidation: a lookup that started before one must not store what it read, since
  // it may have read the state the invalidation is about.
  let generation = 0;

  function dropAll(): void {
    generation++;
    keys.clear();
    users.clear();
    sessions.clear();
  }

  async function cached<K extends {}, V extends {}>(
    cache: LRUCache<K, V>,
    key: K,
    load: () => Promise<V>,
  ): Promise<V> {
    if (!live) return load();
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const started = generation;
    const value = await load();
    if (live && generation === started) cache.set(key, value);
    return value;
  }

  return {
    /** Whether entries are kept (a TTL above 0 and change notifications heard). */
    get live() {
      return live;
    },

    /** The identity of a key hash (the hot path of every API request). */
    async identify(
      keyHash: string,
      lookup: (keyHash: string) => Promise<ApiKeyIdentity | undefined>,
    ): Promise<ApiKeyIdentity | undefined> {
      return (await cached(keys, keyHash, async () => (await lookup(keyHash)) ?? false)) || undefined;
    },

    user<T extends CachedUser>(userId: number, load: () => Promise<T>): Promise<T> {
      return cached(users, userId, load) as Promise<T>;
    },

    /** The session of a token hash (every request of the web application), false for none. */
    session<T extends CachedSession>(tokenHash: string, load: () => Promise<T | false>): Promise<T | false> {
      return cached(sessions, tokenHash, load) as Promise<T | false>;
    },

    /**
     * Drops what a change makes stale: the user's record and every key and session of that user, and
     * the key or session of the hash.
     */
    invalidate(change: AuthChange): void {
      generation++;
      if (typeof change.key_hash === 'string') {
        keys.delete(change.key_hash);
        sessions.delete(change.key_hash);
      }
      if (typeof change.user_id === 'number') {
        users.delete(change.user_id);
        for (const cache of [keys, sessions] as LRUCache<string, { userId: number } | false>[]) {
          const stale: string[] = [];
          for (const [hash, entry] of cache.entries()) {
            if (entry && entry.userId === change.user_id) stale.push(hash);
          }
          for (const hash of stale) cache.delete(hash);
        }
      }
    },

    /** Drops every entry (an unreadable notification). */
    clear: dropAll,

    /** Notifications are heard (again): start from nothing, then keep entries. */
    up(): void {
      dropAll();
      live = enabled;
    },

    /** Notifications may be missed: forget everything and stop keeping entries. */
    down(): void {
      live = false;
      dropAll();
    },
  };
}

export type AuthCache = ReturnType<typeof createAuthCache>;

/** Parses a notification payload; anything unreadable drops everything (safe, and never expected). */
export function parseAuthChange(payload: string): AuthChange | 'all' {
  try {
    const change = JSON.parse(payload) as AuthChange;
    return typeof change === 'object' && change !== null ? change : 'all';
  } catch {
    return 'all';
  }
}

/**
 * Keeps `cache` in step with the database's auth changes through a LISTEN connection. Resolves once
 * listening; until then (and whenever the connection is lost) the cache keeps nothing.
 */
export async function startAuthInvalidation(options: {
  cache: AuthCache;
  connectionString: string;
  log: Logger;
  pingIntervalMs?: number;
}): Promise<ListenerHandle> {
  const { cache } = options;
  return startListener({
    connectionString: options.connectionString,
    channel: AUTH_CHANNEL,
    applicationName: 'leadflow-auth-listener',
    log: options.log,
    ...(options.pingIntervalMs ? { pingIntervalMs: options.pingIntervalMs } : {}),
    onNotification(payload) {
      const change = parseAuthChange(payload);
      if (change === 'all') cache.clear();
      else cache.invalidate(change);
    },
    onUp: () => cache.up(),
    onDown: () => cache.down(),
  });
}
