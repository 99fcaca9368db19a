// Turns what clients send for a blacklist entry into the normalised values stored and matched on:
// LinkedIn references parsed like on contacts and companies, e-mails lower-cased, domains reduced to
// the host, names trimmed and lower-cased. Anything that cannot be understood is a 422 naming the field.
import { AppError, invalidField } from '../../lib/errors.js';
import { parseLinkedInCompany, parseLinkedInPerson } from '../../lib/linkedin.js';
import { normalizeDomain, normalizeEmail, normalizeName } from '../../lib/normalize.js';
import type { CompanyBlacklistValues, LeadBlacklistValues } from './blacklist-match.js';

export type LeadBlacklistInput = {
  linkedin?: string | null;
  ln_id?: string | null;
  email?: string | null;
  work_email?: string | null;
  personal_email?: string | null;
  name?: string | null;
  company_name?: string | null;
};

export type CompanyBlacklistInput = {
  linkedin?: string | null;
  ln_id?: string | number | null;
  domain?: string | null;
  name?: string | null;
};

function given(value: string | number | null | undefined): value is string | number {
  return value !== null && value !== undefined && String(value).trim() !== '';
}

/** One value from several spellings; two different values is a client mistake. */
function agree<T>(values: Array<{ field: string; value: T }>): T | null {
  const first = values[0];
  if (!first) return null;
  const other = values.find((candidate) => candidate.value !== first.value);
  if (other) {
    throw invalidField(
      other.field,
      `${other.field} and ${first.field} name different values; an entry holds one of each (create two entries to blacklist both).`,
    );
  }
  return first.value;
}

export function leadBlacklistValues(input: LeadBlacklistInput): LeadBlacklistValues {
  const linkedins: Array<{ field: string; value: string }> = [];
  const lnIds: Array<{ field: string; value: string }> = [];
  if (given(input.linkedin)) {
    const parsed = parseLinkedInPerson(input.linkedin);
    if (parsed?.linkedin) linkedins.push({ field: 'linkedin', value: parsed.linkedin });
    else if (parsed?.ln_id) lnIds.push({ field: 'linkedin', value: parsed.ln_id });
    else {
      throw invalidField(
        'linkedin',
        `linkedin must be a LinkedIn profile URL (https://www.linkedin.com/in/<nickname>), a public nickname or an ACoA… profile id; got ${JSON.stringify(input.linkedin)}.`,
      );
    }
  }
  if (given(input.ln_id)) {
    const parsed = parseLinkedInPerson(input.ln_id);
    if (!parsed?.ln_id) {
      throw invalidField(
        'ln_id',
        `ln_id must be a LinkedIn profile id starting with ACoA; got ${JSON.stringify(input.ln_id)}.`,
      );
    }
    lnIds.push({ field: 'ln_id', value: parsed.ln_id });
  }
  const emails: Array<{ field: string; value: string }> = [];
  for (const field of ['email', 'work_email', 'personal_email'] as const) {
    const raw = input[field];
    if (!given(raw)) continue;
    const email = normalizeEmail(raw);
    if (!email) throw invalidField(field, `${field} must be an e-mail address; got ${JSON.stringify(raw)}.`);
    emails.push({ field, value: email });
  }
  const values: LeadBlacklistValues = {
    linkedin: agree(linkedins),
    ln_id: agree(lnIds),
    email: agree(emails),
    name: normalizeName(input.name) ?? null,
    company_name: normalizeName(input.company_name) ?? null,
  };
  if (Object.values(values).every((value) => value === null)) {
    const message =
      'Give at least one of linkedin, email, name or company_name (ln_id, work_email and personal_email are accepted too).';
    throw new AppError('validation_error', message, {
      linkedin: [message],
      email: [message],
      name: [message],
      company_name: [message],
    });
  }
  return values;
}

export function companyBlacklistValues(input: CompanyBlacklistInput): CompanyBlacklistValues {
  const slugs: Array<{ field: string; value: string }> = [];
  const lnIds: Array<{ field: string; value: number }> = [];
  if (given(input.linkedin)) {
    const parsed = parseLinkedInCompany(input.linkedin);
    if (parsed?.linkedin) slugs.push({ field: 'linkedin', value: parsed.linkedin });
    else if (parsed?.ln_id) lnIds.push({ field: 'linkedin', value: parsed.ln_id });
    else {
      throw invalidField(
        'linkedin',
        `linkedin must be a LinkedIn company page URL (https://www.linkedin.com/company/<slug>), a page slug or a numeric company id; got ${JSON.stringify(input.linkedin)}.`,
      );
    }
  }
  if (given(input.ln_id)) {
    const text = String(input.ln_id).trim();
    const parsed = /^\d{1,15}$/.test(text) ? parseLinkedInCompany(Number(text)) : undefined;
    if (!parsed?.ln_id) {
      throw invalidField(
        'ln_id',
        `ln_id must be a numeric LinkedIn company id; got ${JSON.stringify(input.ln_id)}.`,
      );
    }
    lnIds.push({ field: 'ln_id', value: parsed.ln_id });
  }
  let domain: string | null = null;
  if (given(input.domain)) {
    domain = normalizeDomain(input.domain) ?? null;
    if (!domain) {
      throw invalidField(
        'domain',
        `domain must be a domain name, website URL or e-mail address (e.g. acme.com); got ${JSON.stringify(input.domain)}.`,
      );
    }
  }
  const values: CompanyBlacklistValues = {
    linkedin: agree(slugs),
    ln_id: agree(lnIds),
    domain,
    name: normalizeName(input.name) ?? null,
  };
  if (Object.values(values).every((value) => value === null)) {
    const message = 'Give at least one of linkedin, domain or name (ln_id is accepted too).';
    throw new AppError('validation_error', message, {
      linkedin: [message],
      domain: [message],
      name: [message],
    });
  }
  return values;
}
