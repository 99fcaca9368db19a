// The one list of variables a message template can use. The render endpoint, the automation engine and
// the documentation (CONTEXT.md, whose table a test keeps in step with this list) all read it.

import { inWireOrder } from '../../lib/field-catalog.js';
import { LEAD_CATALOG } from '../record-fields/lead-catalog.js';

export type VariableGroup = 'contact' | 'company' | 'custom_field' | 'sender';

export type TemplateVariable = {
  /** How a template names it: `first_name`, `company.domain`, `sender.first_name`. */
  name: string;
  group: VariableGroup;
  description: string;
  example: string;
};

/** Contact variables that are no field of the contact record: fallbacks and the uuid. */
const CONTACT_ONLY_VARIABLES: Array<[string, readonly [string, string]]> = [
  ['location', ['Location as written on the profile (alias of raw_address)', 'Berlin, Germany']],
  ['email', ['Work e-mail, else personal e-mail', 'jane@acme.com']],
  ['phone', ['Work phone, else personal phone', '+49 30 1234567']],
  ['lead_uuid', ['The contact\u2019s UUID', '0190...']],
];

/** Order of the contact variables in the list (docs, AI prompts); catalog fields added since go at `*`. */
const CONTACT_VARIABLE_ORDER = `first_name last_name name company_name position headline about location raw_address
  email work_email personal_email phone work_phone_number personal_phone_number linkedin_url linkedin
  sales_navigator_url twitter facebook primary_language skills * lead_uuid`;

/** Contact variables with [description, example]: the catalog's template fields and the fallbacks. */
const contactVariables = inWireOrder(CONTACT_VARIABLE_ORDER, [
  ...LEAD_CATALOG.flatMap((field) => (field.template ? [[field.key, field.template] as const] : [])),
  ...CONTACT_ONLY_VARIABLES,
]);

/** Contact variables: top-level names. The value comes from the contact record (see `contactValues`). */
export const CONTACT_VARIABLES: readonly string[] = contactVariables.map(([name]) => name);
export type ContactVariable = string;

/** Company variables: `company.<key>`; `company` alone prints the company name. */
export const COMPANY_VARIABLES = [
  'name',
  'domain',
  'website',
  'industry',
  'employees_range',
  'location',
  'linkedin_url',
  'phone',
  'about',
  'tagline',
  'year_established',
] as const;
export type CompanyVariable = (typeof COMPANY_VARIABLES)[number];

/** Sender variables: `sender.<key>`; `sender` alone prints the sender's full name. */
export const SENDER_VARIABLES = ['first_name', 'last_name', 'name'] as const;
export type SenderVariable = (typeof SENDER_VARIABLES)[number];

const companyDescriptions: Record<CompanyVariable, [string, string]> = {
  name: ['Company name (also printed by `{{company}}`)', 'Acme'],
  domain: ['Website domain', 'acme.com'],
  website: ['Website URL', 'https://acme.com'],
  industry: ['Industry', 'Software'],
  employees_range: ['Employee range', '51-200'],
  location: ['Headquarters address', 'Berlin, Germany'],
  linkedin_url: ['LinkedIn company page URL', 'https://www.linkedin.com/company/acme'],
  phone: ['Phone', '+49 30 1234567'],
  about: ['About text', 'We make anvils.'],
  tagline: ['Tagline', 'Anvils for everyone'],
  year_established: ['Year founded', '1999'],
};

const senderDescriptions: Record<SenderVariable, [string, string]> = {
  first_name: ['Sender\u2019s first name', 'Max'],
  last_name: ['Sender\u2019s last name', 'Mustermann'],
  name: ['Sender\u2019s full name', 'Max Mustermann'],
};

export const TEMPLATE_VARIABLES: readonly TemplateVariable[] = [
  ...contactVariables.map(([name, [description, example]]) => ({
    name,
    group: 'contact' as const,
    description,
    example,
  })),
  {
    name: 'company',
    group: 'company',
    description: 'Company name; with `.key` the company\u2019s other fields',
    example: 'Acme',
  },
  ...COMPANY_VARIABLES.map((key) => ({
    name: `company.${key}`,
    group: 'company' as const,
    description: companyDescriptions[key][0],
    example: companyDescriptions[key][1],
  })),
  {
    name: 'company.custom_fields.<name>',
    group: 'custom_field',
    description: 'A company custom field by name (case-insensitive)',
    example: 'enterprise',
  },
  {
    name: 'custom_fields.<name>',
    group: 'custom_field',
    description: 'A contact custom field by name (case-insensitive)',
    example: 'Fintech',
  },
  {
    name: 'cf_<name>',
    group: 'custom_field',
    description:
      'Flat alias of a contact custom field: `cf_` and its name in lower case (`Deal_size` \u2192 `cf_deal_size`)',
    example: 'Fintech',
  },
  {
    name: 'sender',
    group: 'sender',
    description: 'The sender\u2019s full name; with `.key` the sender\u2019s other fields',
    example: 'Max Mustermann',
  },
  ...SENDER_VARIABLES.map((key) => ({
    name: `sender.${key}`,
    group: 'sender' as const,
    description: senderDescriptions[key][0],
    example: senderDescriptions[key][1],
  })),
];

/**
 * `cf_` alias of a custom field name: its lower case. Names are identifiers (the custom fields API
 * enforces it); other characters would become `_`, so the alias stays a valid Liquid name either way.
 */
export function customFieldSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
