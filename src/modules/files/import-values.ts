// One CSV row → the input object a contact or company create takes, keyed by input field. Blank cells
// are left out (an import never clears a stored value); a cell that cannot be converted rejects the
// row with a reason that names the column, so the rest of the file still goes in.
import { AppError } from '../../lib/errors.js';
import { type CustomFieldValue, coerceCustomFieldValue } from '../custom-fields/custom-field-values.js';
import { cleanCell } from './csv-format.js';
import type { MappedColumn } from './import-mapping.js';

/** A row that cannot be imported; `reason` is what the import record shows. */
export class RowError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RowError';
  }
}

export type RowValues = {
  /** Input fields (create-lead / create-company keys) with converted values. */
  input: Record<string, unknown>;
  /** Tag names from `tags` columns. */
  tagNames: string[];
  /** Custom field uuid → typed value. */
  customFields: Record<string, CustomFieldValue>;
};

const column = (mapped: MappedColumn) => `column "${mapped.source}" (${mapped.target})`;

function integer(value: string, mapped: MappedColumn): number {
  // "1,234", "1 234" and LinkedIn's "500+" are whole numbers too.
  const compact = value.replace(/[\s,']/g, '').replace(/\+$/, '');
  const number = /^[+-]?\d+$/.test(compact) ? Number(compact) : Number.NaN;
  if (!Number.isSafeInteger(number) || Math.abs(number) > 2_147_483_647) {
    throw new RowError(`${column(mapped)} must be a whole number (got "${value}").`);
  }
  return number;
}

function decimal(value: string, mapped: MappedColumn): number {
  let compact = value.replace(/[\s']/g, '');
  // A comma alone is a decimal comma ("1234,50"); with dots it separates thousands ("1,234.50").
  compact = compact.includes('.') ? compact.replace(/,/g, '') : compact.replace(',', '.');
  const number = /^[+-]?(\d+\.?\d*|\.\d+)$/.test(compact) ? Number(compact) : Number.NaN;
  if (!Number.isFinite(number)) throw new RowError(`${column(mapped)} must be a number (got "${value}").`);
  return number;
}

function flag(value: string, mapped: MappedColumn): number {
  const lower = value.toLowerCase();
  if (['1', 'true', 'yes', 'y'].includes(lower)) return 1;
  if (['0', 'false', 'no', 'n'].includes(lower)) return 0;
  throw new RowError(`${column(mapped)} must be yes/no, true/false or 1/0 (got "${value}").`);
}

function list(value: string): string[] {
  return value
    .split(/[,;|]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Reads the mapped cells of one row; throws RowError naming the first bad column. */
export function readRow(cells: string[], columns: MappedColumn[]): RowValues {
  const input: Record<string, unknown> = {};
  const tagNames: string[] = [];
  const customFields: Record<string, CustomFieldValue> = {};
  for (const mapped of columns) {
    const value = cleanCell(cells[mapped.index]);
    if (value === null) continue;
    switch (mapped.kind) {
      case 'text':
        input[mapped.field] = value;
        break;
      case 'integer':
        input[mapped.field] = integer(value, mapped);
        break;
      case 'number':
        input[mapped.field] = decimal(value, mapped);
        break;
      case 'flag':
        input[mapped.field] = flag(value, mapped);
        break;
      case 'list':
        input[mapped.field] = list(value);
        break;
      case 'enum': {
        const lower = value.toLowerCase();
        if (!mapped.values?.includes(lower)) {
          throw new RowError(
            `${column(mapped)} must be one of ${mapped.values?.join(', ')} (got "${value}").`,
          );
        }
        input[mapped.field] = lower;
        break;
      }
      case 'tags':
        for (const name of value.split(/[,;]/)) if (name.trim()) tagNames.push(name.trim().slice(0, 255));
        break;
      case 'custom': {
        const field = mapped.customField!;
        try {
          const typed = coerceCustomFieldValue(field, value, field.name);
          if (typed !== null) customFields[field.uuid] = typed;
        } catch (error) {
          if (error instanceof AppError) throw new RowError(`${column(mapped)}: ${error.message}`);
          throw error;
        }
        break;
      }
    }
  }
  return { input, tagNames, customFields };
}

/**
 * A validation error of the shared input normaliser (its data keys are input field paths) as a row
 * reason that names the CSV column the field came from.
 */
export function rowErrorFrom(error: AppError, columns: MappedColumn[]): RowError {
  const field = Object.keys(error.data)[0]?.split('.').pop();
  const mapped = columns.find((candidate) => candidate.field === field);
  const message = error.message.replace(/^row\./, '');
  return new RowError(mapped ? `${column(mapped)}: ${message}` : message);
}
