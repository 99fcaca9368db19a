// Parses whatever a user pastes as a LinkedIn person or company into the identifier columns we store
// and deduplicate on. Person identifiers:
//   ln_member_id  numeric member id               123456789, urn:li:member:123456789
//   ln_id         profile URN id ("ACoAA...")      ACoAAB6GuQ4B..., /in/ACoAA..., urn:li:fsd_profile:ACoAA...
//   sn_id         Sales Navigator id ("ACwAA...")  /sales/lead/ACwAA...,NAME_SEARCH,x  /sales/people/ACwAA...
//   linkedin      public nickname (lower case)     https://de.linkedin.com/in/Jane-Smith-1a2b/?trk=x
// Company identifiers: numeric `ln_id` (/company/1234, /sales/company/1234) or the page slug `linkedin`.

export type LinkedInPerson = {
  ln_member_id?: number;
  ln_id?: string;
  sn_id?: string;
  linkedin?: string;
};

export type LinkedInCompany = { ln_id?: number; linkedin?: string };

const URN_ID = /^ACoA[A-Za-z0-9_-]{4,}$/;
const SALES_ID = /^ACwA[A-Za-z0-9_-]{4,}$/;
const MEMBER_ID = /^\d{1,15}$/;
// LinkedIn nicknames: letters (any script), digits, hyphens; 3-100 characters.
const NICKNAME = /^[\p{L}\p{N}][\p{L}\p{N}_-]{1,99}$/u;
const SLUG = /^[\p{L}\p{N}][\p{L}\p{N}_.&-]{0,149}$/u;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A URL on linkedin.com (any subdomain), with or without scheme; undefined when it is not one. */
function linkedInUrl(input: string): URL | undefined {
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase();
  return host === 'linkedin.com' || host.endsWith('.linkedin.com') ? url : undefined;
}

function fromIdentifier(value: string): LinkedInPerson | undefined {
  if (URN_ID.test(value)) return { ln_id: value };
  if (SALES_ID.test(value)) return { sn_id: value };
  if (MEMBER_ID.test(value)) return { ln_member_id: Number(value) };
  return undefined;
}

function fromUrn(input: string): LinkedInPerson | undefined {
  const match = input.match(
    /^urn:li:(?:fsd_profile|fs_profile|fs_miniProfile|person|member|fs_salesProfile):([^,\s)]+)/i,
  );
  return match?.[1] ? fromIdentifier(match[1]) : undefined;
}

/** Returns the identifiers found in `input`, or undefined when it is not a LinkedIn person reference. */
export function parseLinkedInPerson(raw: string | null | undefined): LinkedInPerson | undefined {
  const input = raw?.trim();
  if (!input) return undefined;
  const urn = fromUrn(input);
  if (urn) return urn;
  const bare = fromIdentifier(input);
  if (bare) return bare;

  if (input.includes('/') || /linkedin\.com/i.test(input)) {
    const url = linkedInUrl(input);
    if (!url) return undefined;
    const segments = url.pathname.split('/').filter(Boolean).map(decode);
    const [first, second, third] = segments;
    const profileId = url.searchParams.get('id');
    if (first === 'profile' && second === 'view' && profileId) return fromIdentifier(profileId);
    // /in/<nick>, /mwlite/in/<nick>, /m/in/<nick>
    const inIndex = segments.indexOf('in');
    if (inIndex >= 0 && inIndex <= 1 && segments[inIndex + 1]) {
      const value = segments[inIndex + 1]!;
      const id = fromIdentifier(value);
      if (id && !MEMBER_ID.test(value)) return id;
      return NICKNAME.test(value) ? { linkedin: value.toLowerCase() } : undefined;
    }
    // /sales/lead/ACwAA...,NAME_SEARCH,abc  and  /sales/people/ACwAA...,name
    if (first === 'sales' && (second === 'lead' || second === 'people') && third) {
      const id = third.split(',')[0] ?? '';
      return SALES_ID.test(id) || URN_ID.test(id) ? fromIdentifier(id) : undefined;
    }
    return undefined;
  }
  return NICKNAME.test(input) ? { linkedin: input.toLowerCase() } : undefined;
}

/** Company page URL, Sales Navigator company URL, numeric id or bare slug. */
export function parseLinkedInCompany(raw: string | number | null | undefined): LinkedInCompany | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw > 0 ? { ln_id: raw } : undefined;
  const input = raw?.trim();
  if (!input) return undefined;
  if (/^\d{1,15}$/.test(input)) return { ln_id: Number(input) };
  const urn = input.match(/^urn:li:(?:fs_)?(?:company|organization|fsd_company):(\d+)$/i);
  if (urn?.[1]) return { ln_id: Number(urn[1]) };
  if (input.includes('/') || /linkedin\.com/i.test(input)) {
    const url = linkedInUrl(input);
    if (!url) return undefined;
    const segments = url.pathname.split('/').filter(Boolean).map(decode);
    const index = segments.findIndex(
      (segment) => segment === 'company' || segment === 'school' || segment === 'showcase',
    );
    const value = index >= 0 ? segments[index + 1] : undefined;
    if (!value) return undefined;
    if (/^\d{1,15}$/.test(value)) return { ln_id: Number(value) };
    return SLUG.test(value) ? { linkedin: value.toLowerCase() } : undefined;
  }
  return SLUG.test(input) ? { linkedin: input.toLowerCase() } : undefined;
}

/** Canonical profile URL for a nickname, as webhook payloads and exports show it. */
export function linkedInProfileUrl(nickname: string | null | undefined): string | null {
  return nickname ? `https://www.linkedin.com/in/${encodeURIComponent(nickname)}` : null;
}

export function salesNavigatorUrl(snId: string | null | undefined): string | null {
  return snId ? `https://www.linkedin.com/sales/lead/${snId}` : null;
}
