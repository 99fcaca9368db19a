// Which CSV column goes to which field. Clients send the mapping as `columns` (ordered
// [{source, target}], the documented form) or `column_mapping` ({"Header": "field"}); both resolve to
// the same list of mapped columns, checked against the file's headers, the field catalogue of the
// record type and the team's custom fields. Every mistake is a 422 naming the entry and listing what
// is accepted.
import { AppError, invalidField } from '../../lib/errors.js';
import { inWireOrder, type ValueKind } from '../../lib/field-catalog.js';
import { isUuid } from '../../lib/ids.js';
import { COMPANY_TEXT_FIELDS, NETWORK_TYPES } from '../companies/companies.fields.js';
import type { CustomFieldDefinition } from '../custom-fields/custom-fields.repository.js';
import { IDENTIFYING_INPUTS, LEAD_CATALOG, NAME_INPUTS } from '../record-fields/lead-catalog.js';

export type ImportKind = 'leads' | 'companies';

export type { ValueKind };

type Target = { field: string; kind: ValueKind; values?: readonly string[] };

const text = (field: string): Target => ({ field, kind: 'text' });

/**
 * Order of the contact targets (GET import targets and messages list them in it): the catalog's
 * importable fields, then the other names spreadsheets use for them; fields added since go at the `*`.
 */
const CONTACT_TARGET_ORDER = `name first_name last_name company_name company_ln_id position headline about avatar_url
  facebook twitter work_phone_number personal_phone_number primary_language raw_address timezone linkedin_id
  linkedin ln_member_id ln_id sn_id email work_email personal_email domain connections_number followers_number
  has_open_profile has_verified_profile has_premium supported_languages skills linkedin_status email_status *
  linkedin_url sales_navigator_url avatar full_name job_title company phone location tags`;

/** Contact targets: the create-lead input fields (and a few names real spreadsheets use for them). */
export const LEAD_TARGETS: Record<string, Target> = Object.fromEntries(
  inWireOrder(
    CONTACT_TARGET_ORDER,
    LEAD_CATALOG.flatMap((field) => {
      if (!field.import) return [];
      const { kind, values, aliases = [] } = field.import;
      const target: Target = { field: field.key, kind, ...(values ? { values } : {}) };
      return [field.key, ...aliases].map((name) => [name, target] as const);
    }),
  ),
);

/** Company targets: the create-company input fields (and common spreadsheet names for them). */
export const COMPANY_TARGETS: Record<string, Target> = {
  name: text('name'),
  domain: text('domain'),
  website: text('website'),
  linkedin: text('linkedin'),
  ln_id: text('ln_id'),
  ...Object.fromEntries(
    COMPANY_TEXT_FIELDS.filter((field) => field !== 'network_type').map((field) => [field, text(field)]),
  ),
  network_type: { field: 'network_type', kind: 'enum', values: NETWORK_TYPES },
  employees_on_linkedin: { field: 'employees_on_linkedin', kind: 'integer' },
  followers: { field: 'followers', kind: 'integer' },
  year_established: { field: 'year_established', kind: 'integer' },
  hashtags: { field: 'hashtags', kind: 'list' },
  specialities: { field: 'specialities', kind: 'list' },
  deal_size: { field: 'deal_size', kind: 'number' },
  // Aliases.
  company_name: text('name'),
  linkedin_url: text('linkedin'),
  website_url: text('website'),
  description: text('about'),
  size: text('employees_range'),
  tags: { field: 'tags', kind: 'tags' },
};

/** One mapped column of the file. */
export type MappedColumn = {
  /** 0-based position in the file's rows. */
  index: number;
  /** The header as the client named it. */
  source: string;
  /** The target as the client wrote it. */
  target: string;
  /** The input field it fills (`custom_fields` for custom fields). */
  field: string;
  kind: ValueKind;
  values?: readonly string[];
  customField?: Pick<CustomFieldDefinition, 'uuid' | 'name' | 'type'>;
};

export type MappingInput = {
  columns?: Array<{ source?: unknown; target?: unknown }> | null;
  column_mapping?: Record<string, unknown> | null;
};

const NOUN: Record<ImportKind, string> = { leads: 'contact', companies: 'company' };

/** Every mapping target of a record type with the field it fills (aliases name their field). */
export function importTargets(kind: ImportKind) {
  const targets = kind === 'leads' ? LEAD_TARGETS : COMPANY_TARGETS;
  return Object.entries(targets).map(([name, target]) => ({
    name,
    field: target.field,
    kind: target.kind,
    ...(target.values ? { values: [...target.values] } : {}),
  }));
}
const CUSTOM_PREFIX = 'custom_fields.';

function acceptedTargets(kind: ImportKind): string {
  const targets = Object.keys(kind === 'leads' ? LEAD_TARGETS : COMPANY_TARGETS);
  return `${targets.join(', ')}, custom_fields.<custom field name>, or null to skip the column`;
}

function resolveTarget(
  kind: ImportKind,
  target: string,
  path: string,
  definitions: CustomFieldDefinition[],
): Omit<MappedColumn, 'index' | 'source' | 'target'> {
  const trimmed = target.trim();
  if (trimmed.toLowerCase().startsWith(CUSTOM_PREFIX)) {
    const key = trimmed.slice(CUSTOM_PREFIX.length).trim().toLowerCase();
    const definition = definitions.find(
      (d) => d.name.toLowerCase() === key || (isUuid(key) && d.uuid === key),
    );
    if (!definition) {
      const known =
        definitions.map((d) => d.name).join(', ') ||
        'none yet (create them with POST /leads/api/custom-fields)';
      throw invalidField(
        path,
        `${path}: "${target}" names no ${NOUN[kind]} custom field of your team. ${NOUN[kind]} custom fields: ${known}.`,
      );
    }
    return {
      field: 'custom_fields',
      kind: 'custom',
      customField: { uuid: definition.uuid, name: definition.name, type: definition.type },
    };
  }
  const found = (kind === 'leads' ? LEAD_TARGETS : COMPANY_TARGETS)[trimmed.toLowerCase()];
  if (!found) {
    throw invalidField(
      path,
      `${path}: "${target}" is not a ${NOUN[kind]} field. Accepted: ${acceptedTargets(kind)}.`,
    );
  }
  return { field: found.field, kind: found.kind, ...(found.values ? { values: found.values } : {}) };
}

function resolveSource(source: unknown, path: string, headers: string[]): number {
  if (typeof source === 'number' && Number.isInteger(source) && source >= 0 && source < headers.length) {
    return source;
  }
  if (typeof source === 'string') {
    const exact = headers.indexOf(source);
    if (exact >= 0) return exact;
    const loose = headers.findIndex((header) => header.toLowerCase() === source.trim().toLowerCase());
    if (loose >= 0) return loose;
  }
  throw invalidField(
    path,
    `${path}: ${JSON.stringify(source)} is not a column of the file. Its columns: ${headers
      .map((header) => JSON.stringify(header))
      .join(', ')} (or a 0-based column number).`,
  );
}

/** Entries of the mapping in file order of the request, with their paths for messages. */
function entriesOf(input: MappingInput): Array<{ source: unknown; target: unknown; path: string }> {
  if (input.columns != null && input.column_mapping != null) {
    throw invalidField('columns', 'Give the mapping as columns or as column_mapping, not both.');
  }
  if (input.columns != null) {
    return input.columns.map((entry, index) => {
      if (entry === null || typeof entry !== 'object') {
        throw invalidField(`columns.${index}`, `columns.${index} must be an object {source, target}.`);
      }
      return { source: entry.source, target: entry.target, path: `columns.${index}` };
    });
  }
  if (input.column_mapping != null) {
    return Object.entries(input.column_mapping).map(([source, target]) => ({
      source,
      target,
      path: `column_mapping.${source}`,
    }));
  }
  throw invalidField(
    'columns',
    'columns is required: an ordered array of {"source": "<CSV header>", "target": "<field>"} (target null skips ' +
      'the column); {"column_mapping": {"<CSV header>": "<field>"}} is accepted too.',
  );
}

const LEAD_IDENTIFIERS: readonly string[] = IDENTIFYING_INPUTS;
const LEAD_NAMES: readonly string[] = NAME_INPUTS;
const COMPANY_IDENTIFIERS = ['name', 'domain', 'website', 'linkedin', 'ln_id'];

/**
 * Whether rows of this contact mapping can be deduplicated at all: by an identifier, or by a name
 * together with company_name. Without either every row becomes a new contact.
 */
export function mappingDeduplicates(columns: Pick<MappedColumn, 'field'>[]): boolean {
  const fields = new Set(columns.map((column) => column.field));
  const named = LEAD_NAMES.some((field) => fields.has(field));
  return LEAD_IDENTIFIERS.some((field) => fields.has(field)) || (named && fields.has('company_name'));
}

/** Resolves and checks a mapping against the file's headers and the team's custom fields. */
export function resolveMapping(
  kind: ImportKind,
  input: MappingInput,
  headers: string[],
  definitions: CustomFieldDefinition[],
): MappedColumn[] {
  const mapped: MappedColumn[] = [];
  const targetPaths = new Map<string, string>();
  for (const { source, target, path } of entriesOf(input)) {
    const index = resolveSource(source, `${path}${path.startsWith('columns.') ? '.source' : ''}`, headers);
    if (target === null || target === undefined || target === '') continue;
    const targetPath = path.startsWith('columns.') ? `${path}.target` : path;
    if (typeof target !== 'string') {
      throw invalidField(
        targetPath,
        `${targetPath} must be a field name (a string) or null to skip the column.`,
      );
    }
    const resolved = resolveTarget(kind, target, targetPath, definitions);
    const key = resolved.customField ? `custom:${resolved.customField.uuid}` : resolved.field;
    const earlier = targetPaths.get(key);
    if (earlier && resolved.kind !== 'tags') {
      throw invalidField(
        targetPath,
        `${targetPath}: ${target} is already mapped by ${earlier}; map each field from one column (tags may take several).`,
      );
    }
    targetPaths.set(key, targetPath);
    mapped.push({ index, source: headers[index]!, target, ...resolved });
  }
  if (mapped.length === 0) {
    throw invalidField('columns', 'Map at least one column of the file to a field (every target is null).');
  }
  const fields = new Set(mapped.map((column) => column.field));
  if (kind === 'leads') {
    // The rule of POST /leads/api/leads: a contact needs a name or an identifier. Rows known only by
    // their name are created without deduplication (the import record says how many).
    if (![...LEAD_IDENTIFIERS, ...LEAD_NAMES].some((field) => fields.has(field))) {
      throw new AppError(
        'validation_error',
        'Map at least one column that names or identifies a contact: a name (name, first_name, last_name), ' +
          'a LinkedIn reference (linkedin_id, linkedin, ln_id, sn_id, ln_member_id) or an e-mail (email, ' +
          'work_email, personal_email).',
        { columns: ['no column names or identifies a contact'] },
      );
    }
  } else if (!COMPANY_IDENTIFIERS.some((field) => fields.has(field))) {
    throw invalidField(
      'columns',
      'Map at least one column that identifies a company: name, domain, website, linkedin or ln_id.',
    );
  }
  return mapped;
}
