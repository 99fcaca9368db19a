import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import {
  collapseBatch,
  identifiersCompatible,
  type NormalizedCompany,
  normalizeCompanyInput,
  normalizeCompanyPatch,
} from './companies.input.js';

const normalize = (input: Record<string, unknown>, index = 0) =>
  normalizeCompanyInput(input as never, `companies.${index}`);

describe('normalizeCompanyInput', () => {
  it('derives the dedup keys from URLs, slugs and ids', () => {
    expect(
      normalize({
        name: ' Acme  GmbH ',
        website: 'HTTPS://www2.Acme.de/kontakt',
        linkedin: 'linkedin.com/company/acme-gmbh',
      }),
    ).toMatchObject({ ln_id: null, linkedin: 'acme-gmbh', domain: 'acme.de', name_key: 'acme gmbh' });
    expect(normalize({ linkedin: 'https://www.linkedin.com/sales/company/1035/people' })).toMatchObject({
      ln_id: 1035,
    });
    // An explicit ln_id wins over the one in a URL; an explicit domain wins over the website.
    expect(
      normalize({ ln_id: 7, linkedin: 'https://linkedin.com/company/99', domain: 'a.com', website: 'b.com' }),
    ).toMatchObject({ ln_id: 7, domain: 'a.com' });
    expect(normalize({ name: 'x', website: 'not a website' })).toMatchObject({
      domain: null,
      values: { website: 'not a website' },
    });
  });

  it('stores a single location object as an array and empty strings as null', () => {
    expect(normalize({ name: 'x', hq_location: { city: 'Oslo' }, industry: '  ' }).values).toMatchObject({
      hq_location: [{ city: 'Oslo' }],
      industry: null,
    });
  });

  it('names the field of the failing entry', () => {
    const error = (input: Record<string, unknown>) => {
      try {
        normalize(input, 4);
      } catch (caught) {
        return caught instanceof AppError ? Object.keys(caught.data) : caught;
      }
      return 'no error';
    };
    expect(error({ linkedin: 'https://example.com/company/x' })).toEqual(['companies.4.linkedin']);
    expect(error({ domain: 'localhost' })).toEqual(['companies.4.domain']);
    expect(error({ ln_id: 0 })).toEqual(['companies.4.ln_id']);
    expect(error({ about: 'no identifier' })).toEqual(['companies.4']);
  });
});

describe('collapseBatch', () => {
  const company = (input: Record<string, unknown>, tags: string[] = []): NormalizedCompany => ({
    ...normalize(input),
    tags,
  });

  it('merges by ln_id, slug, domain, then compatible name; later values win, identifiers fill gaps', () => {
    const { companies, groupOf } = collapseBatch([
      company({ name: 'A', ln_id: 1 }, ['t1']),
      company({ linkedin: 'a-co', ln_id: 1, industry: 'X' }, ['t2']),
      company({ linkedin: 'a-co', domain: 'a.com' }),
      company({ name: 'a', industry: 'Y' }),
      company({ name: 'A', domain: 'other.com' }),
      company({ name: 'B' }),
    ]);
    expect(groupOf).toEqual([0, 0, 0, 0, 1, 2]);
    expect(companies[0]).toMatchObject({
      ln_id: 1,
      linkedin: 'a-co',
      domain: 'a.com',
      tags: ['t1', 't2'],
      values: { name: 'a', industry: 'Y' },
    });
    expect(companies[1]).toMatchObject({ domain: 'other.com', name_key: 'a' });
  });

  it('does not move an identifier another merged company already holds', () => {
    const { companies, groupOf } = collapseBatch([
      company({ name: 'One', domain: 'one.com' }),
      company({ name: 'Two', ln_id: 2 }),
      company({ ln_id: 2, domain: 'one.com' }),
    ]);
    expect(groupOf).toEqual([0, 1, 1]);
    expect(companies[1]!.domain).toBeNull();
  });

  it('compares identifiers only where both sides have one', () => {
    const keys = (ln_id: number | null, domain: string | null) => ({
      ln_id,
      linkedin: null,
      domain,
      name_key: 'x',
    });
    expect(identifiersCompatible(keys(1, null), keys(null, 'a.com'))).toBe(true);
    expect(identifiersCompatible(keys(1, 'a.com'), keys(1, 'b.com'))).toBe(false);
  });
});

describe('normalizeCompanyPatch', () => {
  it('keeps only the fields given and lets a new website carry its domain', () => {
    expect(normalizeCompanyPatch({ website: 'https://www.new.example/x' })).toEqual({
      website: 'https://www.new.example/x',
      domain: 'new.example',
    });
    expect(normalizeCompanyPatch({ website: 'https://www.new.example', domain: null })).toEqual({
      website: 'https://www.new.example',
      domain: null,
    });
    expect(normalizeCompanyPatch({ linkedin: 'https://linkedin.com/company/55', industry: null })).toEqual({
      ln_id: 55,
      industry: null,
    });
  });
});
