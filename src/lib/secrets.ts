// Secrets at rest (mailbox passwords, OAuth tokens, browser sessions): AES-256-GCM with a key from
// LEADFLOW_SECRET_KEY, or one generated into the data directory on first start. A sealed value names
// the key it was sealed with, so a key can be rotated: set the new key and list the old one in
// LEADFLOW_SECRET_KEY_PREVIOUS until everything was re-sealed.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';

export type SecretBox = {
  /** Encrypts `plaintext`; the result is text safe to store in any column. */
  seal(plaintext: string | Buffer): string;
  /** Decrypts a value sealed with the current or a previous key; throws when it was tampered with. */
  open(sealed: string): Buffer;
  openText(sealed: string): string;
  /** Whether a sealed value uses an older key (re-seal it). */
  isStale(sealed: string): boolean;
};

export class SecretKeyError extends Error {}

/** A key from its configured text form: 32 bytes as base64 (44 characters) or hex (64). */
export function parseSecretKey(text: string, name = 'LEADFLOW_SECRET_KEY'): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) {
    throw new SecretKeyError(`${name} must be 32 random bytes as base64 or hex (openssl rand -base64 32)`);
  }
  return key;
}

function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function createSecretBox(current: Buffer, previous: Buffer[] = []): SecretBox {
  const keys = new Map([current, ...previous].map((key) => [keyId(key), key]));
  const currentId = keyId(current);
  const open = (sealed: string): Buffer => {
    const [version, id, iv, tag, data] = sealed.split(':');
    const key = id ? keys.get(id) : undefined;
    if (version !== VERSION || !key || !iv || !tag || data === undefined) {
      throw new SecretKeyError('A stored secret cannot be decrypted with the configured keys.');
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]);
  };
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      const data = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return [
        VERSION,
        currentId,
        iv.toString('base64'),
        cipher.getAuthTag().toString('base64'),
        data.toString('base64'),
      ].join(':');
    },
    open,
    openText: (sealed) => open(sealed).toString('utf8'),
    isStale: (sealed) => sealed.split(':')[1] !== currentId,
  };
}

/**
 * The configured key, or the data directory's key file - created (0600) on first use when no key is
 * configured, so a fresh install encrypts from the start. Back the file up with the database.
 */
export function loadSecretBox(options: {
  key: string | undefined;
  previous: string[];
  dataDir: string;
}): SecretBox {
  const previous = options.previous.map((text) => parseSecretKey(text, 'LEADFLOW_SECRET_KEY_PREVIOUS'));
  if (options.key) return createSecretBox(parseSecretKey(options.key), previous);
  const file = path.join(options.dataDir, 'secret.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(options.dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return createSecretBox(parseSecretKey(fs.readFileSync(file, 'utf8'), `the key file ${file}`), previous);
}
