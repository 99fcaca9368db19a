// The data source vocabulary (reference/api-facts.md 4.5): the 13 types and the 6 statuses.
import { SEARCH_TYPES, type SearchType } from '../channels/reader.js';

export const DATA_SOURCE_TYPES = ['csv_leads', ...(Object.keys(SEARCH_TYPES) as SearchType[])] as const;
export type DataSourceType = (typeof DATA_SOURCE_TYPES)[number];

export const DATA_SOURCE_STATUSES = [
  'not_started',
  'in_progress',
  'on_hold',
  'completed',
  'failed',
  'contacts_limit_achieved',
] as const;
export type DataSourceStatus = (typeof DATA_SOURCE_STATUSES)[number];

/** Types that read the sender's own account: no URL. */
export const URL_LESS_TYPES: ReadonlySet<DataSourceType> = new Set(['ln_my_network', 'ln_my_messenger']);

export function isSearchType(type: DataSourceType): type is SearchType {
  return type !== 'csv_leads';
}
