// Groups of the contact's client-written columns, derived from the field catalog (lead-catalog.ts) for
// the input normaliser and the SQL that writes contacts.
import type { SqlType } from '../../lib/field-catalog.js';
import { LEAD_CATALOG, LEAD_COLUMNS } from '../record-fields/lead-catalog.js';
import type { LeadsTable } from './leads.tables.js';

export {
  EMAIL_STATUSES,
  IDENTIFIER_FIELDS,
  LEAD_STATUSES,
  LINKEDIN_STATUSES,
} from '../record-fields/lead-catalog.js';

export type WritableColumn = keyof LeadsTable & string;

const clientFields = LEAD_CATALOG.filter((field) => field.owner === 'client');
const readAs = (read: string) =>
  clientFields.filter((field) => field.read === read).map((field) => field.key as WritableColumn);

/** Plain text columns a client may set on create, upsert and update (trimmed, '' is null). */
export const TEXT_FIELDS = readAs('text');
/** Taken as given (the request schema checked them): counts, statuses, LinkedIn's object lists. */
export const VALUE_FIELDS = readAs('value');
/** 0/1, true/false accepted. */
export const FLAG_FIELDS = readAs('flag');
/** Lists of texts, items trimmed. */
export const TEXT_ARRAY_FIELDS = readAs('list');

/** Every column a client may write (besides list, stage, tags and custom fields). */
export const WRITABLE_COLUMNS = clientFields.map((field) => field.key as WritableColumn);

/** PostgreSQL type of each writable column, for jsonb_to_recordset column lists and casts. */
export const COLUMN_SQL_TYPES: Record<string, SqlType> = Object.fromEntries(
  clientFields.map((field) => [field.key, field.sql!]),
);

/** PostgreSQL type of every stored column of the record, for the statements that write changes. */
export const STORED_COLUMN_TYPES: Record<string, SqlType> = Object.fromEntries(
  LEAD_COLUMNS.map((field) => [field.key, field.sql!]),
);
