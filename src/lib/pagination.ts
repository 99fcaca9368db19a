// Paging and sorting shared by every list: limit/offset with the {data, limit, offset, total, has_more}
// envelope, and order_field/order_type checked against each resource's allow-list.
import { type RawBuilder, sql } from 'kysely';
import { invalidField } from './errors.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 1000;
export const INT32_MAX = 2_147_483_647;
/** Largest numeric id a request may name: bigint columns, within what a JSON number holds exactly. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
/** Offsets are bigint in SQL; past int32 no list of ours has rows, and the bound keeps it a 422. */
export const MAX_OFFSET = INT32_MAX;

export type SortSpec = {
  /** order_field value → SQL column. */
  fields: Record<string, string>;
  default?: string;
  /** Unique column appended to every ordering so pages never overlap or skip rows. */
  tiebreaker: string;
};

export type PageParams = {
  limit?: unknown;
  offset?: unknown;
  order_field?: unknown;
  order_type?: unknown;
};

export type PageRequest = {
  limit: number;
  offset: number;
  orderField: string;
  orderType: 'asc' | 'desc';
};

export type Envelope<T> = { data: T[]; limit: number; offset: number; total: number; has_more: boolean };

function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  return undefined;
}

export function resolvePage(params: PageParams, sort: SortSpec): PageRequest {
  let limit = DEFAULT_LIMIT;
  if (params.limit !== undefined && params.limit !== null) {
    const parsed = toInteger(params.limit);
    if (parsed === undefined || parsed < 1 || parsed > INT32_MAX) {
      throw invalidField(
        'limit',
        `limit must be a whole number from 1 to ${INT32_MAX} (at most ${MAX_LIMIT} is used)`,
      );
    }
    limit = Math.min(parsed, MAX_LIMIT);
  }
  let offset = 0;
  if (params.offset !== undefined && params.offset !== null) {
    const parsed = toInteger(params.offset);
    if (parsed === undefined || parsed < 0 || parsed > MAX_OFFSET)
      throw invalidField('offset', `offset must be a whole number from 0 to ${MAX_OFFSET}`);
    offset = parsed;
  }
  const orderField = params.order_field ?? sort.default ?? 'created_at';
  if (typeof orderField !== 'string' || !(orderField in sort.fields)) {
    throw invalidField(
      'order_field',
      `order_field must be one of: ${Object.keys(sort.fields).join(', ')} (got ${JSON.stringify(orderField)})`,
    );
  }
  // Some clients send 0/1 for asc/desc.
  const rawType = params.order_type ?? 'desc';
  const orderType =
    rawType === 'asc' || rawType === 0 || rawType === '0'
      ? 'asc'
      : rawType === 'desc' || rawType === 1 || rawType === '1'
        ? 'desc'
        : undefined;
  if (!orderType)
    throw invalidField('order_type', `order_type must be asc or desc (got ${JSON.stringify(rawType)})`);
  return { limit, offset, orderField, orderType };
}

/** `ORDER BY` for a resolved page: the chosen column, then the tiebreaker in the same direction. */
export function orderByClause(page: PageRequest, sort: SortSpec): RawBuilder<unknown> {
  const column = sort.fields[page.orderField] ?? sort.tiebreaker;
  const direction = sql.raw(page.orderType);
  if (column === sort.tiebreaker) return sql`${sql.ref(column)} ${direction}`;
  return sql`${sql.ref(column)} ${direction}, ${sql.ref(sort.tiebreaker)} ${direction}`;
}

export function envelope<T>(
  data: T[],
  total: number,
  page: Pick<PageRequest, 'limit' | 'offset'>,
): Envelope<T> {
  return { data, limit: page.limit, offset: page.offset, total, has_more: page.offset + data.length < total };
}
