// Loads what templates print, set-based: one statement for a batch of contacts (with their companies
// and custom fields by name), one for a batch of senders. The engine calls these once per batch; the
// render endpoint with a batch of one.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { linkedInProfileUrl, salesNavigatorUrl } from '../../lib/linkedin.js';
import { linkedInCompanyUrl } from '../companies/companies.fields.js';
import { LEAD_CATALOG } from '../record-fields/lead-catalog.js';
import type { TemplateData } from './render/scope.js';

export type ContactTemplateData = Omit<TemplateData, 'sender'>;
export type SenderTemplateData = NonNullable<TemplateData['sender']>;

/** Stored contact columns that are template variables (the catalog's), printed as they are. */
const CONTACT_COLUMNS = LEAD_CATALOG.filter((field) => field.template && field.sql).map((field) => field.key);
/** What the loader reads of a contact: those columns and what the computed variables need. */
const CONTACT_SELECT = sql.join(
  [...new Set(['uuid', ...CONTACT_COLUMNS, 'sn_id', 'company_uuid'])].map((key) => sql.ref(`l.${key}`)),
);

type ContactRow = Record<string, unknown> & {
  uuid: string;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  raw_address: string | null;
  work_email: string | null;
  personal_email: string | null;
  work_phone_number: string | null;
  personal_phone_number: string | null;
  linkedin: string | null;
  sn_id: string | null;
  company_uuid: string | null;
  c_name: string | null;
  c_domain: string | null;
  c_website: string | null;
  c_industry: string | null;
  c_employees_range: string | null;
  c_hq_raw_address: string | null;
  c_linkedin: string | null;
  c_ln_id: number | null;
  c_phone: string | null;
  c_about: string | null;
  c_tagline: string | null;
  c_year_established: number | null;
  /** Field name → value for every custom field the team defined (null where unset). */
  custom_fields: Record<string, unknown>;
  company_custom_fields: Record<string, unknown>;
};

/**
 * Template data of the team's contacts among `leadUuids` (others and unknown uuids are left out).
 * Custom field values are keyed by field name in SQL, so the statement returns everything a render needs.
 */
export async function loadContactTemplateData(
  db: Executor,
  teamId: number,
  leadUuids: readonly string[],
): Promise<Map<string, ContactTemplateData>> {
  const result = new Map<string, ContactTemplateData>();
  if (leadUuids.length === 0) return result;
  const { rows } = await sql<ContactRow>`
    select ${CONTACT_SELECT},
      c.name as c_name, c.domain as c_domain, c.website as c_website, c.industry as c_industry,
      c.employees_range as c_employees_range, c.hq_raw_address as c_hq_raw_address,
      c.linkedin as c_linkedin, c.ln_id as c_ln_id, c.phone as c_phone, c.about as c_about,
      c.tagline as c_tagline, c.year_established as c_year_established,
      (select coalesce(jsonb_object_agg(f.name, l.custom_fields -> f.uuid::text), '{}')
         from custom_fields f where f.team_id = ${teamId} and f.object = 'lead') as custom_fields,
      (select coalesce(jsonb_object_agg(f.name, c.custom_fields -> f.uuid::text), '{}')
         from custom_fields f where f.team_id = ${teamId} and f.object = 'company') as company_custom_fields
    from leads l
    left join companies c on c.team_id = l.team_id and c.uuid = l.company_uuid
    where l.team_id = ${teamId} and l.uuid = any(${leadUuids as string[]}::uuid[])
  `.execute(db);
  for (const row of rows) result.set(row.uuid, contactTemplateData(row));
  return result;
}

function contactTemplateData(row: ContactRow): ContactTemplateData {
  return {
    contact: {
      lead_uuid: row.uuid,
      ...Object.fromEntries(CONTACT_COLUMNS.map((key) => [key, row[key]])),
      name: row.name ?? ([row.first_name, row.last_name].filter(Boolean).join(' ') || null),
      location: row.raw_address,
      email: row.work_email ?? row.personal_email,
      phone: row.work_phone_number ?? row.personal_phone_number,
      linkedin_url: linkedInProfileUrl(row.linkedin),
      sales_navigator_url: salesNavigatorUrl(row.sn_id),
    },
    company: row.company_uuid
      ? {
          name: row.c_name,
          domain: row.c_domain,
          website: row.c_website,
          industry: row.c_industry,
          employees_range: row.c_employees_range,
          location: row.c_hq_raw_address,
          linkedin_url: linkedInCompanyUrl(row.c_linkedin, row.c_ln_id),
          phone: row.c_phone,
          about: row.c_about,
          tagline: row.c_tagline,
          year_established: row.c_year_established,
        }
      : null,
    customFields: row.custom_fields,
    companyCustomFields: row.company_custom_fields,
  };
}

/** Template data of the team's sender profiles among `senderUuids`. */
export async function loadSenderTemplateData(
  db: Executor,
  teamId: number,
  senderUuids: readonly string[],
): Promise<Map<string, SenderTemplateData>> {
  const result = new Map<string, SenderTemplateData>();
  if (senderUuids.length === 0) return result;
  const rows = await db
    .selectFrom('sender_profiles')
    .select(['uuid', 'first_name', 'last_name'])
    .where('team_id', '=', teamId)
    .where('uuid', 'in', [...senderUuids])
    .execute();
  for (const row of rows) {
    result.set(row.uuid, {
      first_name: row.first_name,
      last_name: row.last_name,
      name: [row.first_name, row.last_name].filter(Boolean).join(' ') || null,
    });
  }
  return result;
}
