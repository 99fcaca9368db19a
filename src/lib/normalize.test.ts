import { describe, expect, it } from 'vitest';
import { emailDomain, normalizeDomain, normalizeEmail, normalizeName } from './normalize.js';

describe('normalizeDomain', () => {
  it.each([
    ['https://www.Acme.com/about?x=1', 'acme.com'],
    ['acme.com', 'acme.com'],
    ['www.acme.com:443', 'acme.com'],
    ['http://shop.acme.co.uk/', 'shop.acme.co.uk'],
    ['jane@Acme.com', 'acme.com'],
    ['https://münchen.de', 'xn--mnchen-3ya.de'],
  ])('%s → %s', (input, expected) => expect(normalizeDomain(input)).toBe(expected));

  it.each(['', 'not a domain', 'localhost'])('rejects %j', (input) =>
    expect(normalizeDomain(input)).toBeUndefined(),
  );
});

describe('e-mail and names', () => {
  it('normalises e-mails and their domains', () => {
    expect(normalizeEmail('  Jane@Acme.COM ')).toBe('jane@acme.com');
    expect(normalizeEmail('jane')).toBeUndefined();
    expect(emailDomain('jane@www.acme.com')).toBe('acme.com');
  });
  it('normalises names', () => expect(normalizeName('  ACME   Inc ')).toBe('acme inc'));
});
