// Where uploaded CSVs and finished exports live. Callers only see keys ("imports/12/<uuid>.csv") and
// streams, so an S3-compatible store can replace the local directory by implementing FileStore.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface FileStore {
  /**
   * Writes `source` to `key` and resolves with the number of bytes written once it is complete.
   * Readers never see a partial file: it appears under `key` only when fully written.
   */
  write(key: string, source: Readable): Promise<number>;
  /** Streams the file; the stream errors with code ENOENT when there is none. */
  read(key: string): Readable;
  /** Size in bytes, or undefined when there is no such file. */
  size(key: string): Promise<number | undefined>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
}

// Keys are built by this module from team ids, uuids and generated names; anything else is a bug.
const KEY = /^[a-z]+(\/[A-Za-z0-9][A-Za-z0-9._-]*)+$/;

/** A directory on local disk (config.filesDir), one file per key. */
export function createLocalFileStore(root: string): FileStore {
  const base = path.resolve(root);

  function pathOf(key: string): string {
    const resolved = path.resolve(base, key);
    if (!KEY.test(key) || key.includes('..') || !resolved.startsWith(base + path.sep)) {
      throw new Error(`Invalid file key "${key}"`);
    }
    return resolved;
  }

  return {
    async write(key, source) {
      const target = pathOf(key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
      let bytes = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, count, createWriteStream(partial));
        await fs.rename(partial, target);
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
      return bytes;
    },

    read(key) {
      return createReadStream(pathOf(key));
    },

    async size(key) {
      try {
        return (await fs.stat(pathOf(key))).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async delete(key) {
      await fs.rm(pathOf(key), { force: true });
    },
  };
}
