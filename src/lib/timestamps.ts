// PostgreSQL stores dates from year 1 and UTC offsets up to ±15:59; RFC 3339 also allows year 0000 and
// offsets up to ±23:59. Everything that takes a date or date-time from a client (request schemas, the
// filter compiler, reporting periods) refuses what the database cannot store, so such a value is a 422
// naming its field and never a database error. The patterns go into the OpenAPI document as they are.

/** A date (YYYY-MM-DD) the database can store: any year but 0000. */
export const STORABLE_DATE_PATTERN = '^(?!0000-)';

/** A date-time the database can store: not year 0000, and its UTC offset (required) within ±15:59. */
export const STORABLE_DATE_TIME_PATTERN = '^(?!0000-).*(?:[Zz]|[+-](?:0\\d|1[0-5])(?::?[0-5]\\d)?)$';

const YEAR_ZERO = /^0000-/;
const OFFSET = /[+-](\d{2}):?(\d{2})$/;

/** False for a year 0000 or an offset beyond ±15:59 (an absent offset is allowed where the caller allows it). */
export function isStorableTimestamp(value: string): boolean {
  if (YEAR_ZERO.test(value)) return false;
  const time = value.slice(10);
  const offset = OFFSET.exec(time);
  return !offset || Number(offset[1]) <= 15;
}
