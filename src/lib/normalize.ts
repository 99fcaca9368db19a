// Normalisation shared by storage, deduplication, blacklists and lookups, so that "the same" value is
// recognised the same way everywhere.
import { domainToASCII } from 'node:url';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trimmed, lower-cased e-mail, or undefined when the value is not an e-mail address. */
export function normalizeEmail(raw: string | null | undefined): string | undefined {
  const value = raw?.trim().toLowerCase();
  return value && EMAIL.test(value) ? value : undefined;
}

/** Domain of an e-mail address ("jane@Acme.com" → "acme.com"). */
export function emailDomain(email: string | null | undefined): string | undefined {
  const at = email?.lastIndexOf('@') ?? -1;
  return at > 0 ? normalizeDomain(email!.slice(at + 1)) : undefined;
}

/**
 * The registrable host of a website given in any form: "https://www.Acme.com/about?x=1",
 * "acme.com", "www.acme.com:443" → "acme.com". Internationalised names become punycode.
 */
export function normalizeDomain(raw: string | null | undefined): string | undefined {
  let value = raw?.trim().toLowerCase();
  if (!value) return undefined;
  if (value.includes('@') && !value.includes('/')) value = value.slice(value.lastIndexOf('@') + 1);
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//.test(value) ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
  host = domainToASCII(host.replace(/\.$/, '')) || host;
  host = host.replace(/^www\d*\./, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) ? host : undefined;
}

/** Case- and space-insensitive key for names ("  ACME  Inc " → "acme inc"). */
export function normalizeName(raw: string | null | undefined): string | undefined {
  const value = raw?.trim().replace(/\s+/g, ' ').toLowerCase();
  return value || undefined;
}
