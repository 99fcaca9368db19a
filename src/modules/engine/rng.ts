// Deterministic randomness: a uniform number in [0, 1) from the hash of its inputs. The engine and the
// sandbox never call Math.random, so the same seed and the same inputs give the same run (the
// simulation replays a failing seed exactly) and a retry renders and decides exactly as before.
import { createHash } from 'node:crypto';

export function uniform(...parts: Array<string | number>): number {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  // 48 bits are plenty for weights and delays and fit a double exactly.
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** An integer in [min, max] from the hash of `parts`. */
export function uniformInt(min: number, max: number, ...parts: Array<string | number>): number {
  return min + Math.floor(uniform(...parts) * (max - min + 1));
}
