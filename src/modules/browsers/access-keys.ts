// Keys of public login links: 32 random bytes, shown once; only their SHA-256 is stored, so a leaked
// database does not open any seat's browser, and a lookup by hash is an index probe.
import { createHash, randomBytes } from 'node:crypto';

export const ACCESS_KEY_PREFIX = 'lb_ak_';
export const ACCESS_KEY_TTL_MS = 7 * 24 * 3600 * 1000;

export function generateAccessKey(): { key: string; hash: string } {
  const key = `${ACCESS_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashAccessKey(key) };
}

export function hashAccessKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Shape check before any lookup (a malformed key is refused without touching the database). */
export function looksLikeAccessKey(key: string): boolean {
  return /^lb_ak_[A-Za-z0-9_-]{43}$/.test(key);
}
