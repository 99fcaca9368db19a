// A stored contact row → the wire record: custom field values keyed by field name instead of uuid,
// convenience LinkedIn URLs, and no internal columns (search_text).
import type { Selectable } from 'kysely';
import { linkedInProfileUrl, salesNavigatorUrl } from '../../lib/linkedin.js';
import { customFieldsByName } from '../custom-fields/custom-field-values.js';
import type { CustomFieldDefinition } from '../custom-fields/custom-fields.repository.js';
import type { LeadsTable } from './leads.tables.js';

export type LeadRow = Omit<Selectable<LeadsTable>, 'search_text'> & { search_text?: string };

/** The Contact record (schema: `Lead`, built from the field catalog). */
export type PresentedLead = Omit<LeadRow, 'search_text' | 'custom_fields'> & {
  linkedin_url: string | null;
  sales_navigator_url: string | null;
  custom_fields: Record<string, unknown>;
};

/** The row's text statuses and jsonb arrays are typed loosely in the table; the wire types name their values. */
/** `extra` fields (create_status, upsert_status) go into the same copy: responses of 1000 contacts add up. */
export function presentLead<E extends Record<string, unknown> = Record<never, never>>(
  row: LeadRow,
  definitions: Pick<CustomFieldDefinition, 'uuid' | 'name'>[],
  extra?: E,
): PresentedLead & E {
  const { search_text: _searchText, custom_fields, ...rest } = row;
  return {
    ...rest,
    linkedin_url: linkedInProfileUrl(row.linkedin),
    sales_navigator_url: salesNavigatorUrl(row.sn_id),
    custom_fields: customFieldsByName(definitions, custom_fields),
    ...extra,
  } as PresentedLead & E;
}
