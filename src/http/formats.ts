// String formats of our own, for rules the server checks with code that no standard JSON Schema format or
// pattern states exactly (a known IANA zone, a website the domain normaliser can read). Each is checked by
// the request validator with the very function the service uses, so the document's `format` is what is
// enforced; the OpenAPI document lists them (x-formats in info) and test/platform/schema-sampler.test.ts
// generates values for them from `examples`. Add a format here, then use it through a schema helper in
// http/schemas.ts (TimeZone, Website).
import { parseLinkedInCompany, parseLinkedInPerson } from '../lib/linkedin.js';
import { normalizeDomain } from '../lib/normalize.js';
import { isValidTimeZone } from '../lib/schedule.js';

export type CustomFormat = {
  /** What the format means, in the words of the document. */
  description: string;
  validate(value: string): boolean;
  /** Valid values, for documentation and for request samplers. */
  examples: readonly string[];
};

/** A blank value means "none" to the fields that use these formats (they store null). */
const blankOr = (check: (value: string) => boolean) => (value: string) =>
  value.trim() === '' || check(value.trim());

export const CUSTOM_FORMATS: Record<string, CustomFormat> = {
  'json-object': {
    description: 'A JSON object written as a string, such as {"q": "acme"} ("" or "null": none)',
    validate: (value) => {
      const text = value.trim();
      if (text === '' || text === 'null') return true;
      try {
        const parsed: unknown = JSON.parse(text);
        return typeof parsed === 'object' && !Array.isArray(parsed);
      } catch {
        return false;
      }
    },
    examples: ['{}', '{"q": "acme"}', ''],
  },
  'time-zone': {
    description: 'An IANA time zone name such as "Europe/Berlin" or "UTC" (a blank value means none)',
    validate: blankOr(isValidTimeZone),
    examples: ['Europe/Berlin', 'America/New_York', 'UTC', 'Asia/Tokyo', 'Australia/Sydney'],
  },
  website: {
    description:
      'A domain or website URL such as "acme.com" or "https://www.acme.com/about" (an e-mail address gives ' +
      'its domain; a blank value means none)',
    validate: blankOr((value) => normalizeDomain(value) !== undefined),
    examples: ['acme.com', 'https://www.example.org/about', 'shop.example.net', 'jane@acme.com'],
  },
  'linkedin-profile': {
    description:
      'A LinkedIn profile: its URL (https://www.linkedin.com/in/<nickname>), the public nickname or an ACoA… ' +
      'profile id (a blank value means none)',
    validate: blankOr((value) => {
      const parsed = parseLinkedInPerson(value);
      return Boolean(parsed?.linkedin || parsed?.ln_id);
    }),
    examples: ['https://www.linkedin.com/in/jane-doe', 'jane-doe-42', 'ACoAABcdEfG1234567'],
  },
  'linkedin-company': {
    description:
      'A LinkedIn company page: its URL (https://www.linkedin.com/company/<slug>), the page slug or the ' +
      'numeric company id (a blank value means none)',
    validate: blankOr((value) => {
      const parsed = parseLinkedInCompany(value);
      return Boolean(parsed?.linkedin || parsed?.ln_id);
    }),
    examples: ['https://www.linkedin.com/company/acme-corp', 'acme-corp', '1035'],
  },
};

/** The formats as Ajv takes them: every Ajv that compiles our schemas (validators, serializers) gets them. */
export const AJV_FORMATS = Object.fromEntries(
  Object.entries(CUSTOM_FORMATS).map(([name, format]) => [
    name,
    { type: 'string' as const, validate: format.validate },
  ]),
);
