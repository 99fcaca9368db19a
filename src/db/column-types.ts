import type { ColumnType } from 'kysely';

/** Set by the database on insert, never updated by the application. */
export type CreatedAt = ColumnType<Date, Date | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | undefined, Date>;
/** jsonb: read as parsed JSON, written as a JSON string (node-pg would turn JS arrays into PG arrays). */
export type Json<T> = ColumnType<T, string | undefined, string>;
export type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;
/** Columns with a database default. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** Maintained by PostgreSQL (generated columns). */
export type Generated<T> = ColumnType<T, never, never>;
