// Which contacts trigger a webhook. `filters` takes two forms, which may be combined:
//   - contact filter keys of the shared filter language (list_uuid, tags, pipeline_stage_uuid,
//     custom_fields, q...), compiled with the contacts' own filter spec (alias `l`);
//   - the hosted service's flow-membership form {"jsonLogic": {"data": {"flows": [{"flow_uuid"}]},
//     "logic": {...}}}, kept for clients written against it. `filter_tree_format` and `elasticQuery`
//     (the hosted UI's renderings of the same jsonLogic) are stored as given and not evaluated.
// Filters are compiled when a webhook is written (a bad filter is a 422) and again at fan-out, where
// they run as one set-based query per webhook and chunk of events.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { AppError } from '../../lib/errors.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import { isUuid } from '../../lib/ids.js';
import { EVENT_CATALOG, type EventName } from '../events/events.catalog.js';

const COMPAT_KEYS = ['jsonLogic', 'elasticQuery', 'filter_tree_format'] as const;

const invalid = (path: string, message: string) =>
  new AppError('validation_error', message, { [path]: [message] });

export type WebhookFilters = Record<string, unknown> | null | undefined;

/**
 * `filters` as a request sends it: the object, or that object as a JSON string (the hosted service's MCP
 * server sends a string). "" and "null" mean none; anything else that is not a JSON object is a 422.
 */
export function filtersFromRequest(value: WebhookFilters | string): WebhookFilters {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '' || text === 'null') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid(
      'filters',
      'filters must be an object, or an object as a JSON string (this string is not JSON)',
    );
  }
  if (parsed === null) return null;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalid('filters', 'filters must be an object, or an object as a JSON string');
  }
  // A JSON body refuses U+0000 as it is read; a string's own JSON must not smuggle one into jsonb.
  if (JSON.stringify(parsed).includes('\\u0000')) {
    throw invalid('filters', 'filters must not contain the character U+0000');
  }
  return parsed as Record<string, unknown>;
}

export type ParsedFilters = {
  /** Contact filter keys (without the compatibility keys), or undefined when there are none. */
  contact: Record<string, unknown> | undefined;
  /** Flows the contact must be in (any of them), or undefined when membership is not asked for. */
  flows: string[] | undefined;
};

/** Collects the flow uuids a jsonLogic tree compares `flow_uuid` with; other variables are refused. */
function walkLogic(node: unknown, path: string, flows: Set<string>): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      walkLogic(item, `${path}.${index}`, flows);
    });
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [operator, operand] of Object.entries(node as Record<string, unknown>)) {
    if (operator === 'var') {
      const name = Array.isArray(operand) ? operand[0] : operand;
      if (name !== 'flows' && name !== 'flow_uuid') {
        throw invalid(
          `${path}.var`,
          `jsonLogic may only test flow membership (variables "flows" and "flow_uuid"; got "${String(name)}"). ` +
            'Use contact filter keys such as list_uuid, tags or custom_fields for other conditions.',
        );
      }
      continue;
    }
    walkLogic(operand, `${path}.${operator}`, flows);
    const operands = Array.isArray(operand) ? operand : [];
    const testsFlow = operands.some((item) => (item as { var?: unknown } | null)?.var === 'flow_uuid');
    if ((operator === '==' || operator === '===') && testsFlow) {
      for (const value of operands) {
        if (typeof value !== 'string') continue;
        if (!isUuid(value)) throw invalid(`${path}.${operator}`, `${path}: "${value}" is not a flow UUID`);
        flows.add(value.toLowerCase());
      }
    }
  }
}

function parseJsonLogic(value: unknown): string[] | undefined {
  const path = 'filters.jsonLogic';
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(path, `${path} must be an object with "data" and "logic"`);
  }
  const { data, logic, ...rest } = value as Record<string, unknown>;
  const unknownKey = Object.keys(rest)[0];
  if (unknownKey) throw invalid(`${path}.${unknownKey}`, `${path} accepts only "data" and "logic"`);
  const flows = new Set<string>();
  if (data !== undefined && data !== null) {
    const list = (data as { flows?: unknown }).flows;
    if (typeof data !== 'object' || (list !== undefined && !Array.isArray(list))) {
      throw invalid(`${path}.data`, `${path}.data must be {"flows": [{"flow_uuid": "<uuid>"}, ...]}`);
    }
    (list ?? []).forEach((entry: unknown, index: number) => {
      const uuid = (entry as { flow_uuid?: unknown } | null)?.flow_uuid;
      if (!isUuid(uuid)) {
        throw invalid(
          `${path}.data.flows.${index}.flow_uuid`,
          `${path}.data.flows.${index}.flow_uuid must be a UUID`,
        );
      }
      flows.add(uuid.toLowerCase());
    });
  }
  walkLogic(logic, `${path}.logic`, flows);
  const hasLogic = logic !== undefined && logic !== null && Object.keys(logic as object).length > 0;
  if (flows.size === 0) {
    if (hasLogic) throw invalid(`${path}.logic`, `${path} must name the flows it tests (data.flows)`);
    return undefined;
  }
  return [...flows];
}

/** Splits and checks the shape of `filters` (not the contact keys: they need the team's spec). */
export function parseFilters(filters: WebhookFilters): ParsedFilters {
  if (filters === null || filters === undefined) return { contact: undefined, flows: undefined };
  const contact: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (!(COMPAT_KEYS as readonly string[]).includes(key)) contact[key] = value;
  }
  if (filters.elasticQuery !== undefined && filters.jsonLogic === undefined) {
    throw invalid(
      'filters.elasticQuery',
      'filters.elasticQuery is only accepted next to filters.jsonLogic, which is what gets evaluated',
    );
  }
  return {
    contact: Object.keys(contact).length > 0 ? contact : undefined,
    flows: parseJsonLogic(filters.jsonLogic),
  };
}

export type CompiledFilters = { where: RawBuilder<SqlBool> | undefined; needsContact: boolean };

/**
 * The SQL condition of a webhook's filters over events `e` joined to their contact `l`. `spec` is the
 * team's contact filter spec (only needed when there are contact keys). Throws a 422 AppError naming
 * the filter key when the filters do not compile. `teamId` is the events' team, written into subqueries
 * as a value (so on Citus they reach the team's own shard group).
 */
export function compileWebhookFilters(
  event: EventName,
  filters: WebhookFilters,
  spec: FilterSpec | undefined,
  teamId: number,
): CompiledFilters {
  const parsed = parseFilters(filters);
  if ((parsed.contact || parsed.flows) && !EVENT_CATALOG[event].contact) {
    throw invalid('filters', `filters select contacts, and ${event} is not about a contact; remove them`);
  }
  const conditions: RawBuilder<SqlBool>[] = [];
  if (parsed.contact) {
    if (!spec) throw new Error('compileWebhookFilters: contact filter keys need the team filter spec');
    const where = compileFilter(spec, parsed.contact, 'filters');
    if (where) conditions.push(where);
  }
  if (parsed.flows) {
    // A contact is "in" a flow when the flow raised the event (its automation) or the contact has an
    // enrollment in it, live or ended (a reply ends the enrollment it answers). One index probe per
    // event on flow_leads (team, contact, flow).
    conditions.push(sql<SqlBool>`((e.payload -> 'automation' ->> 'uuid') = any(${parsed.flows}::text[])
      or exists (
        select 1 from flow_leads fl
        where fl.team_id = ${teamId} and fl.lead_uuid = e.lead_uuid and fl.flow_uuid = any(${parsed.flows}::uuid[])
      ))`);
  }
  return {
    where: conditions.length > 0 ? sql<SqlBool>`(${sql.join(conditions, sql` and `)})` : undefined,
    needsContact: parsed.contact !== undefined,
  };
}

export function hasContactKeys(filters: WebhookFilters): boolean {
  return (
    filters !== null &&
    filters !== undefined &&
    Object.keys(filters).some((key) => !(COMPAT_KEYS as readonly string[]).includes(key))
  );
}

/**
 * The list uuids `filters.list_uuid` names in any of its forms (a uuid, a list of them, operators over
 * either), for the check that they are the team's. Shapes the filter language refuses are left to it.
 */
export function listUuidsOf(filters: WebhookFilters): string[] {
  const found = new Set<string>();
  const collect = (value: unknown) => {
    if (typeof value === 'string' && isUuid(value)) found.add(value.toLowerCase());
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  if (filters) collect(filters.list_uuid);
  return [...found];
}
