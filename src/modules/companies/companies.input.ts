// Turns client company input into stored values (identifiers parsed and normalised the same way
// everywhere) and merges the entries of one create request that describe the same company.
import type { Static } from 'typebox';
import { invalidField } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { parseLinkedInCompany } from '../../lib/linkedin.js';
import { normalizeDomain } from '../../lib/normalize.js';
import type { CustomFieldValue } from '../custom-fields/custom-field-values.js';
import {
  COMPANY_INTEGER_FIELDS,
  COMPANY_TEXT_ARRAY_FIELDS,
  COMPANY_TEXT_FIELDS,
} from './companies.fields.js';
import type { CompanyInput, LookupBody, UpdateCompanyBody } from './companies.schemas.js';

export type CompanyInputBody = Static<typeof CompanyInput>;
export type CompanyPatchBody = Static<typeof UpdateCompanyBody>;
export type LookupCriterion = NonNullable<Static<typeof LookupBody>['lookups']>[number];

/** Identifiers a company is deduplicated on, normalised. */
export type CompanyKeys = {
  ln_id: number | null;
  linkedin: string | null;
  domain: string | null;
  /** Lower-cased name (compared with lower(companies.name)). */
  name_key: string | null;
};

export type NormalizedCompany = CompanyKeys & {
  /** Stored values other than the identifiers (name and website included). */
  values: Record<string, unknown>;
  /** Tag UUIDs and names as given; resolved to `tags` by the service. */
  tagRefs: string[];
  tags: string[];
  customFieldInput: Record<string, unknown> | undefined;
  custom_fields: Record<string, CustomFieldValue>;
  pipeline_stage_uuid: string | null;
};

const cleanText = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
};

/** Trimmed name with inner runs of spaces collapsed, so the case-insensitive name key is stable. */
export const cleanName = (value: unknown): string | null => cleanText(value)?.replace(/\s+/g, ' ') ?? null;

export function parseDomainField(value: unknown, path: string): string | null {
  const text = cleanText(value);
  if (text === null) return null;
  const domain = normalizeDomain(text);
  if (!domain) throw invalidField(path, `${path} must be a domain such as acme.com or a website URL.`);
  return domain;
}

/** `linkedin` input: page URL, Sales Navigator company URL, slug or numeric id. */
export function parseLinkedInField(value: unknown, path: string): { ln_id?: number; linkedin?: string } {
  const parsed = parseLinkedInCompany(value as string | number | null);
  if (!parsed) {
    throw invalidField(
      path,
      `${path} must be a LinkedIn company page URL, a Sales Navigator company URL, a page slug or a numeric id.`,
    );
  }
  return parsed;
}

export function parseLnIdField(value: unknown, path: string): number | null {
  if (value === null || value === undefined) return null;
  const number = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) {
    throw invalidField(path, `${path} must be a positive whole number (the numeric LinkedIn company id).`);
  }
  return number;
}

function hqLocation(value: unknown): unknown[] | null {
  if (value === null || value === undefined) return null;
  return Array.isArray(value) ? value : [value];
}

/** The plain value columns of an input (text, integers, arrays, location, deal size). */
function valueColumns(input: Partial<CompanyInputBody>, onlyGiven: boolean): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (onlyGiven && !(key in input)) return;
    values[key] = value;
  };
  const raw = input as Record<string, unknown>;
  set('name', cleanName(raw.name));
  set('website', cleanText(raw.website));
  for (const field of COMPANY_TEXT_FIELDS) set(field, cleanText(raw[field]));
  for (const field of COMPANY_INTEGER_FIELDS) set(field, raw[field] ?? null);
  for (const field of COMPANY_TEXT_ARRAY_FIELDS) set(field, raw[field] ?? null);
  set('hq_location', hqLocation(raw.hq_location));
  set('deal_size', raw.deal_size ?? null);
  return values;
}

/** Validates and normalises one element of a create request (`path` is e.g. "companies.3"). */
export function normalizeCompanyInput(input: CompanyInputBody, path: string): NormalizedCompany {
  let ln_id = parseLnIdField(input.ln_id, `${path}.ln_id`);
  let linkedin: string | null = null;
  if (input.linkedin !== undefined && input.linkedin !== null && input.linkedin !== '') {
    const parsed = parseLinkedInField(input.linkedin, `${path}.linkedin`);
    linkedin = parsed.linkedin ?? null;
    ln_id ??= parsed.ln_id ?? null;
  }
  const domain =
    input.domain !== undefined && input.domain !== null
      ? parseDomainField(input.domain, `${path}.domain`)
      : (normalizeDomain(cleanText(input.website)) ?? null);
  const values = valueColumns(input, false);
  const name = values.name as string | null;
  if (name === null && ln_id === null && linkedin === null && domain === null) {
    throw invalidField(
      path,
      `${path} needs at least one of name, domain, website, linkedin or ln_id to identify the company.`,
    );
  }
  return {
    ln_id,
    linkedin,
    domain,
    name_key: name?.toLowerCase() ?? null,
    values,
    tagRefs: input.tags ?? [],
    tags: [],
    customFieldInput: input.custom_fields,
    custom_fields: {},
    pipeline_stage_uuid: input.pipeline_stage_uuid ?? input.lead_status_uuid ?? null,
  };
}

/** Splits tag references into UUIDs and names. */
export function splitTagRefs(refs: string[]): { uuids: string[]; names: string[] } {
  const uuids: string[] = [];
  const names: string[] = [];
  for (const ref of refs) (isUuid(ref) ? uuids : names).push(isUuid(ref) ? ref.toLowerCase() : ref);
  return { uuids, names };
}

const IDENTIFIERS = ['ln_id', 'linkedin', 'domain'] as const;

/** Two records may be the same company by name only when no identifier both of them have differs. */
export function identifiersCompatible(a: CompanyKeys, b: CompanyKeys): boolean {
  return IDENTIFIERS.every((key) => a[key] === null || b[key] === null || a[key] === b[key]);
}

/**
 * Merges the entries of one request that are the same company, with the rule used against stored
 * companies: first a shared ln_id, then linkedin slug, then domain, then the name (only when no
 * identifier conflicts). A later entry's values win; identifiers are only filled in where the merged
 * company has none (and no other company of the batch holds them); tags are added and custom fields
 * merged. Returns the merged companies and, for every input index, the index of its merged company.
 */
export function collapseBatch(inputs: NormalizedCompany[]): {
  companies: NormalizedCompany[];
  groupOf: number[];
} {
  const companies: NormalizedCompany[] = [];
  const groupOf: number[] = [];
  const byKey = {
    ln_id: new Map<unknown, number>(),
    linkedin: new Map<unknown, number>(),
    domain: new Map<unknown, number>(),
  };
  const byName = new Map<string, number[]>();
  const index = (group: number) => {
    const company = companies[group]!;
    for (const key of IDENTIFIERS) if (company[key] !== null) byKey[key].set(company[key], group);
    if (company.name_key) {
      const list = byName.get(company.name_key) ?? [];
      if (!list.includes(group)) list.push(group);
      byName.set(company.name_key, list);
    }
  };
  for (const input of inputs) {
    let group: number | undefined;
    for (const key of IDENTIFIERS) {
      if (group === undefined && input[key] !== null) group = byKey[key].get(input[key]);
    }
    if (group === undefined && input.name_key) {
      group = byName
        .get(input.name_key)
        ?.find((candidate) => identifiersCompatible(companies[candidate]!, input));
    }
    if (group === undefined) {
      companies.push({
        ...input,
        values: { ...input.values },
        tags: [...input.tags],
        custom_fields: { ...input.custom_fields },
      });
      group = companies.length - 1;
    } else {
      const target = companies[group]!;
      for (const key of IDENTIFIERS) {
        const value = input[key];
        if (target[key] === null && value !== null && !byKey[key].has(value))
          (target as Record<string, unknown>)[key] = value;
      }
      for (const [key, value] of Object.entries(input.values)) if (value !== null) target.values[key] = value;
      if (input.name_key) target.name_key = input.name_key;
      target.tags = [...new Set([...target.tags, ...input.tags])];
      Object.assign(target.custom_fields, input.custom_fields);
      target.pipeline_stage_uuid = input.pipeline_stage_uuid ?? target.pipeline_stage_uuid;
    }
    groupOf.push(group);
    index(group);
  }
  return { companies, groupOf };
}

/** Column values of a partial update (only the fields given; null clears). Tags, lists, stage apart. */
export function normalizeCompanyPatch(body: CompanyPatchBody): Record<string, unknown> {
  const values = valueColumns(body as Partial<CompanyInputBody>, true);
  if (body.ln_id !== undefined) values.ln_id = parseLnIdField(body.ln_id, 'ln_id');
  if (body.linkedin !== undefined) {
    if (body.linkedin === null || body.linkedin === '') values.linkedin = null;
    else {
      const parsed = parseLinkedInField(body.linkedin, 'linkedin');
      if (parsed.linkedin) values.linkedin = parsed.linkedin;
      if (parsed.ln_id !== undefined && body.ln_id === undefined) values.ln_id = parsed.ln_id;
    }
  }
  if (body.domain !== undefined) values.domain = parseDomainField(body.domain, 'domain');
  else if (typeof body.website === 'string') {
    // The domain follows a new website unless the client sets it explicitly.
    const domain = normalizeDomain(body.website);
    if (domain) values.domain = domain;
  }
  for (const key of ['status', 'linkedin_status', 'data_source_uuid'] as const) {
    if (body[key] !== undefined) values[key] = body[key];
  }
  return values;
}

/** One lookup criterion → the keys to probe; the website is reduced to its domain. */
export function normalizeLookupCriterion(criterion: LookupCriterion, path: string): CompanyKeys {
  let ln_id = parseLnIdField(criterion.ln_id, `${path}.ln_id`);
  let linkedin: string | null = null;
  if (criterion.linkedin !== undefined && criterion.linkedin !== null && criterion.linkedin !== '') {
    const parsed = parseLinkedInField(criterion.linkedin, `${path}.linkedin`);
    linkedin = parsed.linkedin ?? null;
    ln_id ??= parsed.ln_id ?? null;
  }
  let domain = criterion.domain ? parseDomainField(criterion.domain, `${path}.domain`) : null;
  if (!domain && criterion.website) {
    domain = normalizeDomain(criterion.website) ?? null;
    if (!domain) throw invalidField(`${path}.website`, `${path}.website must be a website URL or domain.`);
  }
  const name_key = cleanName(criterion.name)?.toLowerCase() ?? null;
  if (ln_id === null && linkedin === null && domain === null && name_key === null) {
    throw invalidField(path, `${path} needs at least one of ln_id, linkedin, website, domain or name.`);
  }
  return { ln_id, linkedin, domain, name_key };
}
