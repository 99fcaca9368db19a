// Turns create-lead fields as clients send them into the columns we store: LinkedIn references of any
// form are parsed into the identifier columns, e-mails are validated and lower-cased, `email` lands in
// work_email (personal_email when work_email is given too), `name` defaults to first + last name.
// Every rejection is a 422 naming the field by its path (`leads.3.linkedin_id`).

import { invalidField } from '../../lib/errors.js';
import { type LinkedInPerson, parseLinkedInPerson } from '../../lib/linkedin.js';
import { normalizeDomain, normalizeEmail } from '../../lib/normalize.js';
import { isValidTimeZone } from '../../lib/schedule.js';
import {
  FLAG_FIELDS,
  IDENTIFIER_FIELDS,
  TEXT_ARRAY_FIELDS,
  TEXT_FIELDS,
  VALUE_FIELDS,
  type WritableColumn,
} from './lead-fields.js';

export type LeadColumns = Partial<Record<WritableColumn, unknown>>;

export type NormalizedLead = {
  /** Columns the input sets; a key with `null` clears, a missing key leaves the stored value. */
  columns: LeadColumns;
  /** Tag names or uuids as given. */
  tags?: string[];
  /** Custom field values keyed by name or uuid, as given. */
  customFields?: Record<string, unknown>;
  /** Normalised company domain, for linking the contact to a company. */
  domain?: string;
};

export const LINKEDIN_FORMS =
  'a profile URL (https://www.linkedin.com/in/<nickname>, any subdomain), a Sales Navigator lead URL ' +
  '(https://www.linkedin.com/sales/lead/ACwAA...), a nickname, a numeric member id, an ACoAA... profile id ' +
  'or an ACwAA... Sales Navigator id';

type Input = Record<string, unknown>;

/** Field path for messages: `leads.3.email` in a batch, plain `email` at the top level. */
export function at(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function cleanText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  return text === '' ? null : text;
}

function has(input: Input, key: string): boolean {
  return Object.hasOwn(input, key) && input[key] !== undefined;
}

function parseReference(raw: unknown, path: string): LinkedInPerson | null {
  const text = cleanText(raw);
  if (text === null) return null;
  const parsed = parseLinkedInPerson(text);
  if (!parsed) {
    throw invalidField(
      path,
      `${path} is not a LinkedIn reference we can read (got "${text}"). Accepted: ${LINKEDIN_FORMS}.`,
    );
  }
  return parsed;
}

/** A value that must parse to one specific identifier kind (ln_id must be "ACoAA...", ...). */
function parseIdentifier(
  input: Input,
  key: 'ln_id' | 'sn_id',
  path: string,
  expected: string,
): LinkedInPerson | null | undefined {
  if (!has(input, key)) return undefined;
  const parsed = parseReference(input[key], at(path, key));
  if (parsed && parsed[key] === undefined) {
    throw invalidField(at(path, key), `${at(path, key)} must be ${expected} (got "${String(input[key])}").`);
  }
  return parsed;
}

function parseMemberId(value: unknown, path: string): number | null {
  if (value === null || value === '') return null;
  const number = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) {
    throw invalidField(path, `${path} must be a numeric LinkedIn member id (got ${JSON.stringify(value)}).`);
  }
  return number;
}

function parseEmail(value: unknown, path: string): string | null {
  const text = cleanText(value);
  if (text === null) return null;
  const email = normalizeEmail(text);
  if (!email) throw invalidField(path, `${path} must be an e-mail address (got "${text}").`);
  return email;
}

const LINKEDIN_KEYS = ['ln_member_id', 'ln_id', 'sn_id', 'linkedin'] as const;

function linkedInColumns(input: Input, path: string, columns: LeadColumns): void {
  // Lowest priority first: linkedin_id, then a reference pasted into `linkedin`, then explicit fields.
  const found: LeadColumns = {};
  if (has(input, 'linkedin_id'))
    Object.assign(found, parseReference(input.linkedin_id, at(path, 'linkedin_id')));
  if (has(input, 'linkedin')) {
    const parsed = parseReference(input.linkedin, at(path, 'linkedin'));
    if (parsed === null) found.linkedin = null;
    else Object.assign(found, parsed);
  }
  if (has(input, 'ln_member_id'))
    found.ln_member_id = parseMemberId(input.ln_member_id, at(path, 'ln_member_id'));
  const lnId = parseIdentifier(input, 'ln_id', path, 'a LinkedIn profile id starting with ACoA');
  if (lnId !== undefined) found.ln_id = lnId?.ln_id ?? null;
  const snId = parseIdentifier(input, 'sn_id', path, 'a Sales Navigator id starting with ACwA');
  if (snId !== undefined) found.sn_id = snId?.sn_id ?? null;
  for (const key of LINKEDIN_KEYS) if (found[key] !== undefined) columns[key] = found[key];
}

function emailColumns(input: Input, path: string, columns: LeadColumns): void {
  if (has(input, 'work_email')) columns.work_email = parseEmail(input.work_email, at(path, 'work_email'));
  if (has(input, 'personal_email'))
    columns.personal_email = parseEmail(input.personal_email, at(path, 'personal_email'));
  const email = has(input, 'email') ? parseEmail(input.email, at(path, 'email')) : null;
  if (email === null) return;
  if (columns.work_email == null) columns.work_email = email;
  else if (columns.work_email === email) return;
  else if (columns.personal_email == null) columns.personal_email = email;
  else if (columns.personal_email !== email) {
    throw invalidField(
      at(path, 'email'),
      `${at(path, 'email')} has no place to go: work_email and personal_email are both given. Send only those two.`,
    );
  }
}

/** Normalises one create-lead object. `defaultName` fills `name` from first + last name when absent. */
export function normalizeLeadInput(
  input: Input,
  path: string,
  options: { defaultName: boolean },
): NormalizedLead {
  const columns: LeadColumns = {};
  for (const key of TEXT_FIELDS) if (has(input, key)) columns[key] = cleanText(input[key]);
  if (typeof columns.timezone === 'string' && !isValidTimeZone(columns.timezone)) {
    throw invalidField(
      at(path, 'timezone'),
      `${at(path, 'timezone')} must be an IANA time zone such as "Europe/Berlin" or "America/New_York" (got "${columns.timezone}").`,
    );
  }
  if (!has(input, 'avatar_url') && has(input, 'avatar')) columns.avatar_url = cleanText(input.avatar);
  linkedInColumns(input, path, columns);
  emailColumns(input, path, columns);
  for (const key of FLAG_FIELDS) {
    if (has(input, key)) columns[key] = typeof input[key] === 'boolean' ? Number(input[key]) : input[key];
  }
  for (const key of TEXT_ARRAY_FIELDS) {
    if (has(input, key)) {
      const list = input[key] as string[] | null;
      columns[key] = list === null ? null : list.map((item) => item.trim()).filter(Boolean);
    }
  }
  for (const key of VALUE_FIELDS) if (has(input, key)) columns[key] = input[key];
  if (options.defaultName && columns.name == null) {
    const full = [columns.first_name, columns.last_name].filter((part) => typeof part === 'string').join(' ');
    if (full) columns.name = full;
  }
  const result: NormalizedLead = { columns };
  if (has(input, 'tags')) result.tags = input.tags as string[];
  if (has(input, 'custom_fields')) result.customFields = input.custom_fields as Record<string, unknown>;
  if (has(input, 'domain')) {
    const text = cleanText(input.domain);
    if (text !== null) {
      const domain = normalizeDomain(text);
      if (!domain)
        throw invalidField(
          at(path, 'domain'),
          `${at(path, 'domain')} must be a domain or website like acme.com (got "${text}").`,
        );
      result.domain = domain;
    }
  }
  return result;
}

/**
 * Columns of a NEW contact: when only a full name is known (spreadsheets often hold nothing else), its
 * first word becomes first_name and the rest last_name, so message templates can greet by first name.
 * Existing contacts are never touched by this: it only applies to inserts.
 */
export function withNameParts(columns: LeadColumns): LeadColumns {
  if (
    typeof columns.name !== 'string' ||
    columns.first_name !== undefined ||
    columns.last_name !== undefined
  ) {
    return columns;
  }
  const [first, ...rest] = columns.name.trim().split(/\s+/);
  return { ...columns, first_name: first || null, last_name: rest.length > 0 ? rest.join(' ') : null };
}

/**
 * What every stored contact has (create, upsert, import, update): a name or an identifier. A contact
 * with neither could never be found, matched or greeted.
 */
export const CONTACT_NEEDS =
  'a contact needs a name or an identifier: first_name, last_name or name, a LinkedIn reference ' +
  '(linkedin_id, linkedin, ln_member_id, ln_id, sn_id) or an e-mail (email, work_email, personal_email)';

const NAME_COLUMNS = ['name', 'first_name', 'last_name'] as const;

/** Whether the columns (a new contact's, or a stored contact with its changes) name or identify someone. */
export function isIdentifiable(columns: LeadColumns): boolean {
  return [...NAME_COLUMNS, ...IDENTIFIER_FIELDS].some((key) => columns[key] != null && columns[key] !== '');
}

/** 422 at `path` (`leads.3`, `lead`, or the body) when the contact has no name and no identifier. */
export function requireIdentifiable(columns: LeadColumns, path: string): void {
  if (isIdentifiable(columns)) return;
  const field = path || 'lead';
  throw invalidField(field, `${path ? `${path}: ` : ''}${CONTACT_NEEDS}.`);
}

/** The dedup keys of a normalised contact, for matching. */
export type MatchKeys = {
  ln_member_id: number | null;
  ln_id: string | null;
  sn_id: string | null;
  linkedin: string | null;
  work_email: string | null;
  personal_email: string | null;
  name: string | null;
  company_name: string | null;
};

export function matchKeysOf(columns: LeadColumns): MatchKeys {
  const value = <T>(key: keyof MatchKeys) => (columns[key] ?? null) as T | null;
  return {
    ln_member_id: value<number>('ln_member_id'),
    ln_id: value<string>('ln_id'),
    sn_id: value<string>('sn_id'),
    linkedin: value<string>('linkedin'),
    work_email: value<string>('work_email'),
    personal_email: value<string>('personal_email'),
    name: value<string>('name'),
    company_name: value<string>('company_name'),
  };
}

export function hasMatchKey(keys: MatchKeys): boolean {
  return (
    keys.ln_member_id !== null ||
    keys.ln_id !== null ||
    keys.sn_id !== null ||
    keys.linkedin !== null ||
    keys.work_email !== null ||
    keys.personal_email !== null ||
    (keys.name !== null && keys.company_name !== null)
  );
}
