// The one list of variables a message template can use. The render endpoint, the automation engine and
// the documentation (CONTEXT.md, whose table a test keeps in step with this list) all read it.

export type VariableGroup = 'contact' | 'company' | 'custom_field' | 'sender';

export type TemplateVariable = {
  /** How a template names it: `first_name`, `company.domain`, `sender.first_name`. */
  name: string;
  group: VariableGroup;
  description: string;
  example: string;
};

/** Contact variables: top-level names. The value comes from the contact record (see `contactValues`). */
export const CONTACT_VARIABLES = [
  'first_name',
  'last_name',
  'name',
  'company_name',
  'position',
  'headline',
  'about',
  'location',
  'raw_address',
  'email',
  'work_email',
  'personal_email',
  'phone',
  'work_phone_number',
  'personal_phone_number',
  'linkedin_url',
  'linkedin',
  'sales_navigator_url',
  'twitter',
  'facebook',
  'primary_language',
  'skills',
  'lead_uuid',
] as const;
export type ContactVariable = (typeof CONTACT_VARIABLES)[number];

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

const contactDescriptions: Record<ContactVariable, [string, string]> = {
  first_name: ['First name', 'Jane'],
  last_name: ['Last name', 'Smith'],
  name: ['Full name', 'Jane Smith'],
  company_name: ['Company name (the contact\u2019s, else its linked company\u2019s)', 'Acme'],
  position: ['Job title', 'CTO'],
  headline: ['LinkedIn headline', 'CTO at Acme | Cloud'],
  about: ['LinkedIn "about" text', 'Building things.'],
  location: ['Location as written on the profile (alias of raw_address)', 'Berlin, Germany'],
  raw_address: ['Location as written on the profile', 'Berlin, Germany'],
  email: ['Work e-mail, else personal e-mail', 'jane@acme.com'],
  work_email: ['Work e-mail', 'jane@acme.com'],
  personal_email: ['Personal e-mail', 'jane@gmail.com'],
  phone: ['Work phone, else personal phone', '+49 30 1234567'],
  work_phone_number: ['Work phone', '+49 30 1234567'],
  personal_phone_number: ['Personal phone', '+49 171 1234567'],
  linkedin_url: ['LinkedIn profile URL', 'https://www.linkedin.com/in/jane-smith'],
  linkedin: ['LinkedIn nickname', 'jane-smith'],
  sales_navigator_url: ['Sales Navigator URL', 'https://www.linkedin.com/sales/lead/ACwAA...'],
  twitter: ['Twitter/X handle or URL', 'janesmith'],
  facebook: ['Facebook handle or URL', 'jane.smith'],
  primary_language: ['Primary language', 'German'],
  skills: ['Skills (a list: use `join`, `first` or a `for` loop)', 'Go, Kubernetes'],
  lead_uuid: ['The contact\u2019s UUID', '0190...'],
};

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
  ...CONTACT_VARIABLES.map((key) => ({
    name: key,
    group: 'contact' as const,
    description: contactDescriptions[key][0],
    example: contactDescriptions[key][1],
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
