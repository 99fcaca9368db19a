import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox, loadSecretBox, parseSecretKey, SecretKeyError } from './secrets.js';

describe('secrets at rest', () => {
  it('round-trips, never stores the plaintext, and refuses tampering', () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = box.seal('smtp-password-123');
    expect(sealed).not.toContain('smtp-password-123');
    expect(box.openText(sealed)).toBe('smtp-password-123');
    expect(box.seal('same')).not.toBe(box.seal('same'));
    const parts = sealed.split(':');
    parts[4] = Buffer.from('forged').toString('base64');
    expect(() => box.open(parts.join(':'))).toThrow();
  });

  it('opens values sealed with a previous key and says they are stale', () => {
    const oldKey = randomBytes(32);
    const sealed = createSecretBox(oldKey).seal('token');
    const rotated = createSecretBox(randomBytes(32), [oldKey]);
    expect(rotated.openText(sealed)).toBe('token');
    expect(rotated.isStale(sealed)).toBe(true);
    expect(rotated.isStale(rotated.seal('token'))).toBe(false);
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow(SecretKeyError);
  });

  it('generates a key file once and reuses it; refuses a malformed key', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadflow-secret-'));
    const sealed = loadSecretBox({ key: undefined, previous: [], dataDir: dir }).seal('x');
    expect((fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toString(8)).toBe('600');
    expect(loadSecretBox({ key: undefined, previous: [], dataDir: dir }).openText(sealed)).toBe('x');
    expect(() => parseSecretKey('short')).toThrow(/32 random bytes/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
