// GET /ai/api/variables: the hosted AI API's list of what templates can use, paged and searched the way
// its MCP server asks (limit, offset, order_field, order_type, filter[q]). The list itself is the AI
// templates' (GET /flows/api/ai-templates/variables answers it whole, as a bare array, for editors).
import { Envelope, ListQuery } from '../../http/schemas.js';
import { invalidField } from '../../lib/errors.js';
import { envelope, type PageParams, resolvePage, type SortSpec } from '../../lib/pagination.js';
import { TemplateVariableList } from '../ai-templates/ai-templates.schemas.js';

type Variable = { name: string; group: string; description: string; example: string };

export const variableSort: SortSpec = {
  fields: { name: 'name', group: 'group' },
  default: 'name',
  tiebreaker: 'name',
};

export const VARIABLE_FILTER_KEYS = ['q', 'group'];

export const VariablesQuery = ListQuery(variableSort, VARIABLE_FILTER_KEYS);
export const VariablePage = Envelope(TemplateVariableList.items);

/** One page of `variables`: filter[q] (name or description contains), filter[group]; name order by default. */
export function pageOfVariables<V extends Variable>(
  variables: V[],
  params: PageParams & { filter?: unknown },
) {
  // A list of names reads best from a to z: ascending unless the client asks otherwise.
  const page = resolvePage({ ...params, order_type: params.order_type ?? 'asc' }, variableSort);
  const filter = (params.filter ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(filter)) {
    if (!VARIABLE_FILTER_KEYS.includes(key)) {
      throw invalidField(
        `filter.${key}`,
        `filter.${key}: variables filter by ${VARIABLE_FILTER_KEYS.join(', ')}`,
      );
    }
    if (typeof filter[key] !== 'string')
      throw invalidField(`filter.${key}`, `filter.${key} must be a string`);
  }
  const q = ((filter.q as string | undefined) ?? '').toLowerCase();
  const matching = variables.filter(
    (v) =>
      (!q || v.name.toLowerCase().includes(q) || v.description.toLowerCase().includes(q)) &&
      (filter.group === undefined || v.group === filter.group),
  );
  const key = page.orderField as 'name' | 'group';
  const sign = page.orderType === 'asc' ? 1 : -1;
  matching.sort((a, b) => sign * (a[key].localeCompare(b[key]) || a.name.localeCompare(b.name)));
  return envelope(matching.slice(page.offset, page.offset + page.limit), matching.length, page);
}

export const VariablesDescription =
  'The variables an AI template can use (contact, company, sender and the team\u2019s custom fields), ' +
  'paged: filter[q] searches name and description, filter[group] picks contact, company, custom_field ' +
  'or sender; sorted by name, ascending unless order_type says otherwise.';
