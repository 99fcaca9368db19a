// The contact filter as rows a person builds (field, operator, value) and their translation into the
// API's filter language (src/lib/filter.ts): one key per field, operators as {op: value}, lists as "any
// of", "is_null" for empty; custom fields under custom_fields by name.

export type FieldKind = 'search' | 'text' | 'list' | 'stage' | 'tags' | 'boolean' | 'date' | 'custom';
export type FieldDef = { key: string; label: string; kind: FieldKind; customType?: string };
export type Condition = { id: number; field: string; op: string; value: string | string[] };

export const STANDARD_FIELDS: FieldDef[] = [
  { key: 'q', label: 'Search text', kind: 'search' },
  { key: 'list_uuid', label: 'List', kind: 'list' },
  { key: 'tags', label: 'Tags', kind: 'tags' },
  { key: 'pipeline_stage_uuid', label: 'Pipeline stage', kind: 'stage' },
  { key: 'company_name', label: 'Company', kind: 'text' },
  { key: 'position', label: 'Position', kind: 'text' },
  { key: 'first_name', label: 'First name', kind: 'text' },
  { key: 'last_name', label: 'Last name', kind: 'text' },
  { key: 'work_email', label: 'Work e-mail', kind: 'text' },
  { key: 'raw_address', label: 'Location', kind: 'text' },
  { key: 'has_unread', label: 'Has unread messages', kind: 'boolean' },
  { key: 'is_blacklisted', label: 'Blacklisted', kind: 'boolean' },
  { key: 'created_at', label: 'Added', kind: 'date' },
];

const TEXT_OPS = [
  { value: 'is', label: 'is' },
  { value: 'is_not', label: 'is not' },
  { value: 'empty', label: 'is empty' },
  { value: 'not_empty', label: 'is not empty' },
];

export const OPERATORS: Record<FieldKind, { value: string; label: string }[]> = {
  search: [{ value: 'contains', label: 'contains' }],
  text: TEXT_OPS,
  custom: [...TEXT_OPS, { value: 'lt', label: 'is less than' }, { value: 'gt', label: 'is more than' }],
  list: [
    { value: 'is', label: 'is any of' },
    { value: 'is_not', label: 'is none of' },
  ],
  stage: [
    { value: 'is', label: 'is any of' },
    { value: 'is_not', label: 'is none of' },
  ],
  tags: [
    { value: 'any', label: 'has any of' },
    { value: 'all', label: 'has all of' },
    { value: 'none', label: 'has no tags' },
  ],
  boolean: [
    { value: 'true', label: 'yes' },
    { value: 'false', label: 'no' },
  ],
  date: [
    { value: 'after', label: 'on or after' },
    { value: 'before', label: 'before' },
  ],
};

/** Whether an operator takes a value from the person. */
export function needsValue(op: string): boolean {
  return !['empty', 'not_empty', 'none', 'true', 'false'].includes(op);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function put(target: Record<string, unknown>, key: string, value: unknown) {
  const existing = target[key];
  target[key] = isObject(existing) && isObject(value) ? { ...existing, ...value } : value;
}

function scalar(op: string, value: string | string[]): unknown {
  const v = Array.isArray(value) ? value[0] : value;
  switch (op) {
    case 'is':
      return v;
    case 'is_not':
      return { '!=': v };
    case 'empty':
      return 'is_null';
    case 'not_empty':
      return 'is_not_null';
    case 'lt':
      return { '<': v };
    case 'gt':
      return { '>': v };
    default:
      return v;
  }
}

/** The API filter of the rows (rows still missing a value are left out), or undefined for none. */
export function toFilter(conditions: Condition[], fields: FieldDef[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  for (const c of conditions) {
    const def = fields.find((f) => f.key === c.field);
    if (!def) continue;
    const list = Array.isArray(c.value) ? c.value : c.value ? [c.value] : [];
    if (needsValue(c.op) && list.every((v) => !v.trim())) continue;
    switch (def.kind) {
      case 'search':
        out.q = list[0];
        break;
      case 'list':
      case 'stage':
        put(out, def.key, c.op === 'is_not' ? { '!=': list } : list);
        break;
      case 'tags':
        if (c.op === 'none') out.tags = 'is_null';
        else put(out, c.op === 'all' ? 'tags_all' : 'tags', list);
        break;
      case 'boolean':
        out[def.key] = c.op === 'true';
        break;
      case 'date':
        put(out, def.key, { [c.op === 'after' ? '>=' : '<']: list[0] });
        break;
      case 'custom':
        put(custom, def.key.slice('custom:'.length), scalar(c.op, c.value));
        break;
      default:
        put(out, def.key, scalar(c.op, c.value));
    }
  }
  if (Object.keys(custom).length > 0) out.custom_fields = custom;
  return Object.keys(out).length > 0 ? out : undefined;
}
