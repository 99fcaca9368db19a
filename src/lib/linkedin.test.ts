import { describe, expect, it } from 'vitest';
import { parseLinkedInCompany, parseLinkedInPerson } from './linkedin.js';

describe('parseLinkedInPerson', () => {
  const cases: [string, ReturnType<typeof parseLinkedInPerson>][] = [
    ['https://www.linkedin.com/in/jane-smith-12345', { linkedin: 'jane-smith-12345' }],
    ['https://www.linkedin.com/in/jane-smith-12345/', { linkedin: 'jane-smith-12345' }],
    ['http://linkedin.com/in/Jane-Smith-12345?trk=public_profile', { linkedin: 'jane-smith-12345' }],
    ['https://de.linkedin.com/in/jane-smith-12345/', { linkedin: 'jane-smith-12345' }],
    ['linkedin.com/in/jane-smith-12345', { linkedin: 'jane-smith-12345' }],
    ['www.linkedin.com/in/jane-smith-12345/details/experience/', { linkedin: 'jane-smith-12345' }],
    ['https://www.linkedin.com/in/j%C3%BCrgen-m%C3%BCller-7b1', { linkedin: 'jürgen-müller-7b1' }],
    ['https://www.linkedin.com/mwlite/in/jane-smith', { linkedin: 'jane-smith' }],
    ['  jane-smith-12345  ', { linkedin: 'jane-smith-12345' }],
    ['jsmith', { linkedin: 'jsmith' }],
    ['123456789', { ln_member_id: 123456789 }],
    ['urn:li:member:987654', { ln_member_id: 987654 }],
    ['ACoAAB6GuQ4BxYz12_ab-CD', { ln_id: 'ACoAAB6GuQ4BxYz12_ab-CD' }],
    ['https://www.linkedin.com/in/ACoAAB6GuQ4BxYz12', { ln_id: 'ACoAAB6GuQ4BxYz12' }],
    ['urn:li:fsd_profile:ACoAAB6GuQ4BxYz12', { ln_id: 'ACoAAB6GuQ4BxYz12' }],
    ['ACwAAAB6GuQ4BxYz12', { sn_id: 'ACwAAAB6GuQ4BxYz12' }],
    [
      'https://www.linkedin.com/sales/lead/ACwAAAB6GuQ4BxYz12,NAME_SEARCH,Ab12',
      { sn_id: 'ACwAAAB6GuQ4BxYz12' },
    ],
    ['https://www.linkedin.com/sales/people/ACwAAAB6GuQ4BxYz12,jane', { sn_id: 'ACwAAAB6GuQ4BxYz12' }],
    ['https://www.linkedin.com/profile/view?id=ACoAAB6GuQ4BxYz12', { ln_id: 'ACoAAB6GuQ4BxYz12' }],
  ];
  it.each(cases)('%s', (input, expected) => {
    expect(parseLinkedInPerson(input)).toEqual(expected);
  });

  it.each([
    '',
    '   ',
    'https://www.google.com/in/jane',
    'https://www.linkedin.com/company/acme',
    'https://www.linkedin.com/feed/',
    'John Smith',
    'https://evil-linkedin.com/in/jane',
  ])('rejects %j', (input) => {
    expect(parseLinkedInPerson(input)).toBeUndefined();
  });
});

describe('parseLinkedInCompany', () => {
  it.each([
    ['https://www.linkedin.com/company/acme-inc/', { linkedin: 'acme-inc' }],
    ['https://www.linkedin.com/company/Acme-Inc/about/', { linkedin: 'acme-inc' }],
    ['linkedin.com/company/1441', { ln_id: 1441 }],
    ['https://www.linkedin.com/sales/company/1441', { ln_id: 1441 }],
    ['urn:li:organization:1441', { ln_id: 1441 }],
    ['acme-inc', { linkedin: 'acme-inc' }],
    ['1441', { ln_id: 1441 }],
  ] as const)('%s', (input, expected) => {
    expect(parseLinkedInCompany(input)).toEqual(expected);
  });

  it('rejects non-company URLs', () => {
    expect(parseLinkedInCompany('https://www.linkedin.com/in/jane')).toBeUndefined();
    expect(parseLinkedInCompany('https://example.com/company/acme')).toBeUndefined();
  });
});
