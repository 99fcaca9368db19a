import type { SortSpec } from '../../lib/pagination.js';

/** Sort fields of the seat list (its order_field enum). */
export const SEAT_SORT: SortSpec = {
  fields: { created_at: 'created_at', updated_at: 'updated_at', id: 'id' },
  tiebreaker: 'id',
};
