import { Type } from 'typebox';
import { DateTime, Envelope, INT32_MAX, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import { importFilterFields, importSort } from './imports.repository.js';

const count = (description: string) => Type.Integer({ description });

export const FileImport = Type.Object(
  {
    uuid: Uuid('File import identifier; poll GET /leads/api/file-imports/{uuid}'),
    team_id: Type.Integer(),
    user_id: Nullable(Type.Integer({ description: 'User who uploaded the file' })),
    type: Type.String({
      description: 'csv_leads (contacts) or csv_companies; set by the import started last',
    }),
    status: Type.String({
      description:
        'uploaded (no import started yet) → queued → processing → done or failed. A run interrupted by a ' +
        'crash goes on from its last checkpoint.',
    }),
    file_name: Type.String({ description: 'Name of the uploaded file' }),
    size_bytes: Type.Integer({ description: 'File size in bytes' }),
    encoding: Type.String({
      description: 'Detected character encoding: utf-8, utf-16le, utf-16be or windows-1252',
    }),
    has_bom: Type.Boolean({ description: 'The file starts with a byte order mark' }),
    delimiter: Type.String({ description: 'Detected delimiter: comma, semicolon, tab or pipe' }),
    enclosure: Type.String({ description: 'Quote character of quoted cells' }),
    headers: Type.Array(Type.String(), {
      description:
        'Column names from the header row, as a mapping names them: blank ones become "Column N", repeated ones ' +
        '"Email (2)"',
    }),
    rows_count: count('Data rows of the file (not counting the header row and empty lines)'),
    sample_rows: Type.Array(Type.Record(Type.String(), Type.String()), {
      description: 'The first data rows, keyed by header',
    }),
    list_uuid: Nullable(Uuid('List the contacts were imported into')),
    list_uuids: Type.Array(Uuid(), { description: 'Lists the companies were added to' }),
    columns: Nullable(
      Type.Array(
        Type.Object({
          source: Type.String({ description: 'Header of the CSV column' }),
          target: Nullable(Type.String({ description: 'Field it fills; null: skipped' })),
        }),
        { description: 'The mapping of the current import (null before one is started)' },
      ),
    ),
    options: Nullable(
      Type.Object(
        {
          update_if_exists: Type.Boolean({ description: 'Matched records were updated' }),
          move_to_list: Type.Boolean({ description: 'Matched contacts were moved into list_uuid' }),
          skip_first_row: Type.Boolean({ description: 'The first row was read as the header' }),
          tags: Type.Array(Uuid(), { description: 'Tags added to every imported record' }),
          data_source_uuid: Nullable(Uuid('Data source recorded on created records')),
        },
        { description: 'Options of the current import (null before one is started)' },
      ),
    ),
    total_rows: count('Rows the import reads'),
    processed_rows: count('Rows handled so far; equals total_rows when done'),
    created_count: count('Rows that created a record'),
    updated_count: count('Rows that changed an existing record (deduplicated by the upsert rules)'),
    duplicate_count: count(
      'Rows that matched an existing record (or an earlier row of the file) and changed nothing',
    ),
    blacklisted_count: count('Rows skipped because they match the blacklist'),
    undeduplicated_count: count(
      'Of created_count, contacts created from rows known only by a name (no LinkedIn reference, no e-mail, no ' +
        'company_name): nothing can deduplicate them, so importing the same rows again creates them again',
    ),
    warnings: Type.Array(Type.String(), {
      description:
        'What the owner of the import should know, such as rows that cannot be deduplicated (empty when nothing)',
    }),
    error_count: count('Rows that could not be imported'),
    errors: Type.Array(
      Type.Object({
        row: Type.Integer({ description: 'Row number as a spreadsheet shows it (the header is row 1)' }),
        reason: Type.String({ description: 'Why the row was not imported, naming the column' }),
      }),
      { description: 'The first 100 row errors' },
    ),
    error: Nullable(Type.String({ description: 'Why the import failed' })),
    started_at: Nullable(DateTime()),
    finished_at: Nullable(DateTime()),
    file_removed_at: Nullable(
      DateTime(
        'When retention removed the file (LEADFLOW_FILE_RETENTION_DAYS after it was uploaded or last imported); the record stays',
      ),
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'File import' },
);

export const FileImportPage = Envelope(FileImport);
export const FileImportsQuery = ListQuery(importSort, Object.keys(importFilterFields));

const mappingEntry = Type.Object(
  {
    source: Type.Union([Type.String(), Type.Integer({ minimum: 0, maximum: INT32_MAX })], {
      description: 'CSV header (as in the upload record\u2019s headers) or 0-based column number',
    }),
    target: Nullable(
      Type.String({ description: 'Field to fill, custom_fields.<name>, tags, or null to skip' }),
    ),
  },
  { additionalProperties: false },
);

const options = {
  update_if_exists: Type.Optional(
    Type.Boolean({
      description: 'Update records that already exist (default true); false counts them as duplicates',
    }),
  ),
  skip_first_row: Type.Optional(
    Type.Boolean({ description: 'The first row is the header (default true); false imports it as data' }),
  ),
  tags: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      maxItems: 100,
      description: 'Tag UUIDs or names added to every imported record (missing names are created)',
    }),
  ),
};

const mapping = {
  columns: Type.Optional(
    Type.Array(mappingEntry, {
      maxItems: 1000,
      description: 'Ordered column mapping [{source, target}] (or give column_mapping)',
    }),
  ),
  column_mapping: Type.Optional(
    Type.Record(Type.String(), Nullable(Type.String()), {
      description: 'Alternative mapping form: {"<CSV header>": "<field>" or null}',
    }),
  ),
  data_source_uuid: Type.Optional(Nullable(Uuid('Data source to record on created records'))),
  ...options,
};

export const ImportLeadsBody = Type.Object(
  {
    ...mapping,
    list_uuid: Type.Optional(Uuid('List the contacts go into (default: a new list named after the file)')),
    move_to_list: Type.Optional(
      Type.Boolean({ description: 'Move contacts that already exist into list_uuid (default false)' }),
    ),
    options: Type.Optional(
      Type.Object(
        {
          ...options,
          move_to_list: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false, description: 'The same options nested (top-level values win)' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ImportCompaniesBody = Type.Object(
  {
    ...mapping,
    list_uuids: Type.Optional(
      Type.Array(Uuid(), { maxItems: 100, description: 'Lists to add the companies to' }),
    ),
    list_uuid: Type.Optional(Uuid('One list to add the companies to')),
    options: Type.Optional(
      Type.Object(options, {
        additionalProperties: false,
        description: 'The same options nested (top-level values win)',
      }),
    ),
  },
  { additionalProperties: false },
);

withExample(ImportLeadsBody, {
  columns: [
    { source: 'Full Name', target: 'name' },
    { source: 'Email', target: 'email' },
    { source: 'Notes', target: null },
  ],
  list_uuid: '0190f000-0000-7000-8000-000000000001',
  update_if_exists: true,
});
withExample(ImportCompaniesBody, {
  column_mapping: { Company: 'name', Website: 'website' },
  list_uuids: ['0190f000-0000-7000-8000-000000000001'],
});

export const ImportTargetsQuery = Type.Object({
  type: Type.Union([Type.Literal('leads'), Type.Literal('companies')], {
    description: 'Record type the mapping is for',
  }),
});
export const ImportTargets = Type.Object({
  data: Type.Array(
    Type.Object({
      name: Type.String({ description: 'The value of a mapping entry\u2019s target (case does not matter)' }),
      field: Type.String({ description: 'The field it fills (aliases such as job_title fill position)' }),
      kind: Type.String({ description: 'How cells are read: text, integer, number, flag, list, enum, tags' }),
      values: Type.Optional(Type.Array(Type.String(), { description: 'Accepted values of an enum' })),
    }),
  ),
});
