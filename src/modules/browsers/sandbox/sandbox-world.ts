// The people and companies of the sandbox LinkedIn network: generated from the seed and a key, so the
// same seed always shows the same person under the same reference, with nothing stored. The network
// has PEOPLE members and COMPANIES companies, numbered; the identifiers it issues encode the number
// (and a check), so any of them finds the member again. References it never issued (a nickname a user
// typed) still find a person - one generated from that reference, keeping it - so contacts from
// anywhere can be enriched in demos and tests.
import { createHash } from 'node:crypto';
import { randomStream } from '../../../lib/rng.js';
import type {
  CompanyResult,
  EducationEntry,
  ExperienceEntry,
  LinkedInCompanyPage,
  LinkedInProfile,
  PersonResult,
} from '../../channels/reader.js';
import {
  COMPANY_SUFFIXES,
  COMPANY_WORDS,
  DEGREES,
  FIELDS,
  FIRST_NAMES,
  INDUSTRIES,
  LAST_NAMES,
  PLACES,
  POSTS,
  RANGES,
  SCHOOLS,
  SKILLS,
  TITLES,
} from './sandbox-words.js';

/** Members of the network (a prime, so a search can walk them in a seeded order without repeats). */
export const PEOPLE = 1_000_003;
/** Companies of the network. */
export const COMPANIES = 50_021;

const MEMBER_ID_BASE = 500_000_000;
const COMPANY_ID_BASE = 10_000_000;

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: () => number, min: number, max: number) =>
  min + Math.floor(random() * (max - min + 1));
const flag = (random: () => number, chance: number): 0 | 1 => (random() < chance ? 1 : 0);
const slugOf = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const base36 = (n: number) => n.toString(36);

/** Four characters that tell an identifier the sandbox issued from a look-alike. */
function check(kind: string, n: number): string {
  return createHash('sha256').update(`${kind}:${n}`).digest('hex').slice(0, 4);
}

/** ln_id / sn_id of member `n`: "ACoAA" / "ACwAA", then SBX, the number and its check. */
export function memberUrnId(prefix: 'ACoAA' | 'ACwAA', n: number): string {
  return `${prefix}SBX${base36(n).padStart(4, '0')}x${check(prefix, n)}`;
}

function decodeUrnId(prefix: 'ACoAA' | 'ACwAA', value: string | null | undefined): number | undefined {
  const match = value?.match(/^(ACoAA|ACwAA)SBX([0-9a-z]{4,})x([0-9a-f]{4})$/);
  if (!match || match[1] !== prefix) return undefined;
  const n = Number.parseInt(match[2]!, 36);
  return n < PEOPLE && match[3] === check(prefix, n) ? n : undefined;
}

/** A member's name, from which everything else about them is drawn. */
function memberName(seed: number, n: number) {
  const random = randomStream('sandbox-member-name', seed, n);
  return { first: pick(random, FIRST_NAMES), last: pick(random, LAST_NAMES) };
}

export function memberNickname(seed: number, n: number): string {
  const { first, last } = memberName(seed, n);
  return `${slugOf(first)}-${slugOf(last)}-${base36(n)}`;
}

/** The member a reference names, when the sandbox issued it. */
export function memberOf(
  seed: number,
  ref: {
    ln_member_id?: number | null;
    ln_id?: string | null;
    sn_id?: string | null;
    linkedin?: string | null;
  },
): number | undefined {
  if (ref.ln_member_id != null) {
    const n = Number(ref.ln_member_id) - MEMBER_ID_BASE;
    if (Number.isInteger(n) && n >= 0 && n < PEOPLE) return n;
  }
  const byUrn = decodeUrnId('ACoAA', ref.ln_id) ?? decodeUrnId('ACwAA', ref.sn_id);
  if (byUrn !== undefined) return byUrn;
  const tail = ref.linkedin?.match(/-([0-9a-z]{1,4})$/)?.[1];
  if (tail) {
    const n = Number.parseInt(tail, 36);
    if (n < PEOPLE && memberNickname(seed, n) === ref.linkedin) return n;
  }
  return undefined;
}

function companyName(seed: number, c: number): string {
  const random = randomStream('sandbox-company-name', seed, c);
  return `${pick(random, COMPANY_WORDS)} ${pick(random, COMPANY_SUFFIXES)}`;
}

export function companySlug(seed: number, c: number): string {
  return `${slugOf(companyName(seed, c))}-${base36(c)}`;
}

/** The company a reference names, when the sandbox issued it. */
export function companyOf(
  seed: number,
  ref: { ln_id?: number | null; linkedin?: string | null; domain?: string | null },
): number | undefined {
  if (ref.ln_id != null) {
    const c = Number(ref.ln_id) - COMPANY_ID_BASE;
    if (Number.isInteger(c) && c >= 0 && c < COMPANIES) return c;
  }
  const slug = ref.linkedin ?? ref.domain?.replace(/\.example$/, '');
  const tail = slug?.match(/-([0-9a-z]{1,4})$/)?.[1];
  if (tail) {
    const c = Number.parseInt(tail, 36);
    if (c < COMPANIES && companySlug(seed, c) === slug) return c;
  }
  return undefined;
}

/** Company `c` of the network, seen on its page. */
export function companyPage(
  seed: number,
  c: number,
  keep: Partial<LinkedInCompanyPage> = {},
): LinkedInCompanyPage {
  const random = randomStream('sandbox-company', seed, c);
  const name = keep.name ?? companyName(seed, c);
  const slug = keep.linkedin ?? companySlug(seed, c);
  const [range, low, high] = pick(random, RANGES);
  const [city, country] = pick(random, PLACES);
  const industry = pick(random, INDUSTRIES);
  const domain = keep.domain ?? `${slug}.example`;
  return {
    ln_id: keep.ln_id ?? COMPANY_ID_BASE + c,
    linkedin: slug,
    name,
    domain,
    website: `https://www.${domain}`,
    industry,
    employees_range: range,
    employees_on_linkedin: between(random, Math.max(1, Math.floor(low * 0.6)), high),
    followers: between(random, 50, 250_000),
    hq_raw_address: `${city}, ${country}`,
    about: `${name} builds ${industry.toLowerCase()} products for teams in ${country} and beyond.`,
    tagline: `${pick(random, ['Smarter', 'Simpler', 'Faster', 'Greener'])} ${industry.toLowerCase()}`,
    year_established: between(random, 1950, 2024),
    specialities: [pick(random, SKILLS), pick(random, SKILLS)].filter((v, i, all) => all.indexOf(v) === i),
    phone: `+${between(random, 1, 99)} ${between(random, 100, 999)} ${between(random, 100000, 9999999)}`,
    logo_url: `https://media.sandbox.invalid/company/${slug}.png`,
  };
}

export function companyResult(page: LinkedInCompanyPage): CompanyResult {
  return {
    ln_id: page.ln_id,
    linkedin: page.linkedin,
    name: page.name,
    industry: page.industry,
    employees_range: page.employees_range,
    hq_raw_address: page.hq_raw_address,
    logo_url: page.logo_url,
  };
}

/** The identifiers a person keeps: the network's own, or those of the reference it was generated for. */
type PersonIds = Pick<LinkedInProfile, 'ln_member_id' | 'ln_id' | 'sn_id' | 'linkedin'>;

function profileOf(
  seed: number,
  key: string | number,
  name: { first: string; last: string },
  ids: PersonIds,
) {
  const random = randomStream('sandbox-person', seed, key);
  const employer = Math.floor(random() * COMPANIES);
  const company = companyPage(seed, employer);
  const title = pick(random, TITLES);
  const [city, country, language] = pick(random, PLACES);
  const since = between(random, 2012, 2025);
  const experience: ExperienceEntry[] = [
    {
      title,
      company: company.name!,
      start_date: `${since}-${String(between(random, 1, 12)).padStart(2, '0')}`,
      end_date: null,
    },
  ];
  for (let i = between(random, 0, 2), end = since; i > 0; i -= 1) {
    const start = end - between(random, 1, 5);
    experience.push({
      title: pick(random, TITLES),
      company: companyName(seed, Math.floor(random() * COMPANIES)),
      start_date: `${start}-01`,
      end_date: `${end}-01`,
    });
  }
  const graduated = since - between(random, 0, 4);
  const educations: EducationEntry[] = [
    {
      school: pick(random, SCHOOLS),
      degree: pick(random, DEGREES),
      field_of_study: pick(random, FIELDS),
      start_year: graduated - 4,
      end_year: graduated,
    },
  ];
  const skills = [...new Set(Array.from({ length: between(random, 3, 8) }, () => pick(random, SKILLS)))];
  const fill = (text: string) =>
    text.replace('{industry}', company.industry!).replace('{company}', company.name!).replace('{city}', city);
  const posts = Array.from({ length: between(random, 0, 3) }, () => ({
    content: fill(pick(random, POSTS)),
    date: `2026-${String(between(random, 1, 5)).padStart(2, '0')}-${String(between(random, 1, 28)).padStart(2, '0')}`,
  }));
  const profile: LinkedInProfile = {
    ...ids,
    first_name: name.first,
    last_name: name.last,
    name: `${name.first} ${name.last}`,
    headline: `${title} at ${company.name} | ${company.industry}`,
    about: `${title} with ${2026 - since}+ years in ${company.industry!.toLowerCase()}. Based in ${city}.`,
    position: title,
    company_name: company.name,
    company_ln_id: String(company.ln_id),
    company_linkedin: company.linkedin,
    avatar_url: `https://media.sandbox.invalid/avatar/${ids.linkedin ?? key}.jpg`,
    raw_address: `${city}, ${country}`,
    location: [{ address_string: `${city}, ${country}`, city, country }],
    connections_number: between(random, 30, 500),
    followers_number: between(random, 30, 20_000),
    primary_language: language,
    supported_languages: language === 'en' ? ['en'] : [language, 'en'],
    has_open_profile: flag(random, 0.2),
    has_verified_profile: flag(random, 0.4),
    has_premium: flag(random, 0.25),
    experience,
    educations,
    skills,
    posts,
  };
  return profile;
}

/** Member `n` of the network, as their profile shows them. */
export function memberProfile(seed: number, n: number): LinkedInProfile {
  const name = memberName(seed, n);
  return profileOf(seed, n, name, {
    ln_member_id: MEMBER_ID_BASE + n,
    ln_id: memberUrnId('ACoAA', n),
    sn_id: memberUrnId('ACwAA', n),
    linkedin: memberNickname(seed, n),
  });
}

/**
 * A person for a reference the network never issued, keyed by it: the given identifiers are kept, the
 * others are drawn (marked "F" so they never decode as a member's).
 */
export function foreignProfile(seed: number, key: string, given: Partial<PersonIds>): LinkedInProfile {
  const random = randomStream('sandbox-foreign-name', seed, key);
  const name = { first: pick(random, FIRST_NAMES), last: pick(random, LAST_NAMES) };
  const tag = createHash('sha256').update(`${seed}:${key}`).digest('hex');
  return profileOf(seed, `foreign:${key}`, name, {
    ln_member_id: given.ln_member_id ?? 900_000_000 + (Number.parseInt(tag.slice(0, 8), 16) % 99_000_000),
    ln_id: given.ln_id ?? `ACoAAF${tag.slice(8, 30)}`,
    sn_id: given.sn_id ?? `ACwAAF${tag.slice(8, 30)}`,
    linkedin: given.linkedin ?? `${slugOf(name.first)}-${slugOf(name.last)}-f${tag.slice(30, 36)}`,
  });
}

/** The card a search result shows for a person; `ids` names the identifiers the result carries. */
export function personResult(profile: LinkedInProfile, ids: ReadonlyArray<keyof PersonIds>): PersonResult {
  const pickId = <K extends keyof PersonIds>(key: K) => (ids.includes(key) ? profile[key] : null);
  return {
    ln_member_id: pickId('ln_member_id'),
    ln_id: pickId('ln_id'),
    sn_id: pickId('sn_id'),
    linkedin: pickId('linkedin'),
    first_name: profile.first_name,
    last_name: profile.last_name,
    name: profile.name,
    headline: profile.headline,
    position: profile.position,
    company_name: profile.company_name,
    company_ln_id: profile.company_ln_id,
    raw_address: profile.raw_address,
    avatar_url: profile.avatar_url,
  };
}
