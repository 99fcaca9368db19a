// Stored company row → wire object: the pipeline stage under both of its names, the LinkedIn URL,
// deal_size as a number and custom field values keyed by field name instead of uuid.
import type { Selectable } from 'kysely';
import { customFieldsByName } from '../custom-fields/custom-field-values.js';
import type { CustomFieldDefinition } from '../custom-fields/custom-fields.repository.js';
import { linkedInCompanyUrl } from './companies.fields.js';
import type { CompaniesTable } from './companies.tables.js';

export type CompanyRow = Selectable<CompaniesTable>;

export function toCompany(row: CompanyRow, definitions: Pick<CustomFieldDefinition, 'uuid' | 'name'>[]) {
  return {
    ...row,
    hq_location: row.hq_location as Record<string, unknown>[] | null,
    lead_status_uuid: row.pipeline_stage_uuid,
    linkedin_url: linkedInCompanyUrl(row.linkedin, row.ln_id),
    deal_size: row.deal_size === null ? null : Number(row.deal_size),
    custom_fields: customFieldsByName(definitions, row.custom_fields),
  };
}

export type CompanyWire = ReturnType<typeof toCompany>;
