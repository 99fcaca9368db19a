import { Type } from 'typebox';
import {
  atLeastOne,
  DateTime,
  EmailText,
  Envelope,
  ListQuery,
  LN_ID_PATTERN,
  Nullable,
  Uuid,
  Website,
  withExample,
} from '../../http/schemas.js';
import {
  blacklistSort,
  companiesBlacklistFilterFields,
  leadsBlacklistFilterFields,
} from './blacklists.repository.js';

const common = {
  uuid: Uuid('Entry id'),
  team_id: Type.Integer({ description: 'Team the entry belongs to' }),
  user_id: Nullable(Type.Integer({ description: 'User who added the entry' })),
};
const stamps = {
  created_at: DateTime('When the entry was added'),
  updated_at: DateTime('When the entry last changed'),
};

export const LeadsBlacklistEntry = Type.Object(
  {
    ...common,
    name: Nullable(Type.String({ description: 'Full name, lower case' })),
    company_name: Nullable(Type.String({ description: 'Company name, lower case' })),
    linkedin: Nullable(Type.String({ description: 'LinkedIn public nickname, lower case' })),
    ln_id: Nullable(Type.String({ description: 'LinkedIn profile id (ACoA…)' })),
    email: Nullable(
      Type.String({ description: 'E-mail address, lower case; matches work or personal e-mail' }),
    ),
    ...stamps,
  },
  {
    description:
      'A contact blacklist entry. A contact matches when every field the entry sets matches; matching contacts have is_blacklisted = true.',
  },
);

export const CompaniesBlacklistEntry = Type.Object(
  {
    ...common,
    name: Nullable(Type.String({ description: 'Company name, lower case' })),
    domain: Nullable(Type.String({ description: 'Website domain, e.g. acme.com' })),
    linkedin: Nullable(Type.String({ description: 'LinkedIn company page slug, lower case' })),
    ln_id: Nullable(Type.Integer({ description: 'Numeric LinkedIn company id' })),
    ...stamps,
  },
  {
    description:
      'A company blacklist entry. A company matches when every field the entry sets matches; matching companies have is_blacklisted = true.',
  },
);

export const LeadsBlacklistPage = Envelope(LeadsBlacklistEntry);
export const CompaniesBlacklistPage = Envelope(CompaniesBlacklistEntry);
export const LeadsBlacklistQuery = ListQuery(blacklistSort, Object.keys(leadsBlacklistFilterFields));
export const CompaniesBlacklistQuery = ListQuery(blacklistSort, Object.keys(companiesBlacklistFilterFields));

const text = (description: string, maxLength = 500) =>
  Type.Optional(Nullable(Type.String({ maxLength, description })));

export const CreateLeadsBlacklistBody = Type.Object(
  {
    linkedin: Type.Optional(
      Nullable(
        Type.String({
          minLength: 2,
          maxLength: 500,
          format: 'linkedin-profile',
          description: 'Profile URL, public nickname or ACoA… profile id',
        }),
      ),
    ),
    ln_id: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 500,
          pattern: LN_ID_PATTERN,
          description: 'LinkedIn profile id (ACoA…), or a profile URL or URN holding one',
        }),
      ),
    ),
    email: Type.Optional(
      Nullable(EmailText({ description: 'E-mail address (matches work and personal e-mail)' })),
    ),
    work_email: Type.Optional(Nullable(EmailText({ description: 'Accepted as email' }))),
    personal_email: Type.Optional(Nullable(EmailText({ description: 'Accepted as email' }))),
    name: text('Full name (matched case-insensitively)', 255),
    company_name: text('Company name (matched case-insensitively)', 255),
  },
  {
    additionalProperties: false,
    ...atLeastOne(
      [['linkedin'], ['email'], ['name'], ['company_name'], ['ln_id'], ['work_email'], ['personal_email']],
      'at least one of linkedin, email, name or company_name (ln_id, work_email and personal_email are accepted too)',
    ),
    description:
      'At least one of linkedin, email, name, company_name (or ln_id, work_email, personal_email). Every given field must match for a contact to be blacklisted; e-mail fields given together name the same address.',
  },
);

export const CreateCompaniesBlacklistBody = Type.Object(
  {
    linkedin: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 500,
          format: 'linkedin-company',
          description: 'Company page URL, page slug or numeric company id',
        }),
      ),
    ),
    ln_id: Type.Optional(
      Nullable(
        Type.Union(
          [
            Type.Integer({ minimum: 1, maximum: 999_999_999_999_999 }),
            Type.String({ maxLength: 20, pattern: '^\\s*[1-9]\\d{0,14}\\s*$' }),
          ],
          { description: 'Numeric LinkedIn company id (1 to 15 digits)' },
        ),
      ),
    ),
    domain: Type.Optional(
      Nullable(
        Website({ description: 'Domain, website URL or e-mail address; stored as the host, e.g. acme.com' }),
      ),
    ),
    name: text('Company name (matched case-insensitively)', 255),
  },
  {
    additionalProperties: false,
    ...atLeastOne(
      [['linkedin'], ['domain'], ['name'], ['ln_id']],
      'at least one of linkedin, domain or name (ln_id is accepted too)',
    ),
    description:
      'At least one of linkedin, domain, name (or ln_id). Every given field must match for a company to be blacklisted.',
  },
);

withExample(CreateLeadsBlacklistBody, { email: 'competitor@rival.example' });
withExample(CreateCompaniesBlacklistBody, { domain: 'spammer.com' });
