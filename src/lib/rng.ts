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

/**
 * A deterministic stream of uniform numbers in [0, 1) seeded by the hash of `parts` (sfc32): one hash
 * for many draws, where the sandbox generates a whole person or company from one key.
 */
export function randomStream(...parts: Array<string | number>): () => number {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  let a = digest.readUInt32BE(0);
  let b = digest.readUInt32BE(4);
  let c = digest.readUInt32BE(8);
  let d = digest.readUInt32BE(12);
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
