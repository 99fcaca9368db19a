import { type TSchema, Type } from 'typebox';
import {
  anyPresent,
  DateTime,
  Envelope,
  ListQuery,
  Nullable,
  Selection,
  Uuid,
  withExample,
} from '../../http/schemas.js';
import { COMPANY_FILTER_KEYS } from '../companies/companies.filter.js';
import { LEAD_FILTER_KEYS } from '../leads/leads.filter.js';
import { standardColumns } from './export-columns.js';
import { exportFilterFields, exportSort } from './exports.repository.js';
import type { ExportType } from './files.tables.js';

export const FileExport = Type.Object(
  {
    uuid: Uuid('File export identifier; poll GET /leads/api/file-exports/{uuid}'),
    team_id: Type.Integer(),
    user_id: Nullable(Type.Integer({ description: 'User who asked for the export' })),
    type: Type.String({ description: 'contact_export_csv (contacts) or account_export_csv (companies)' }),
    status: Type.String({ description: 'queued → processing → done or failed' }),
    filter: Type.Record(Type.String(), Type.Unknown(), { description: 'Which records, as sent' }),
    fields: Nullable(Type.Array(Type.String(), { description: 'Columns asked for (null: every column)' })),
    file_name: Nullable(
      Type.String({ description: 'Set when done; download with POST /leads/api/file-exports/download' }),
    ),
    rows_count: Nullable(Type.Integer({ description: 'Records in the file (set when done)' })),
    size_bytes: Nullable(Type.Integer({ description: 'File size in bytes (set when done)' })),
    error: Nullable(Type.String({ description: 'Why the export failed' })),
    started_at: Nullable(DateTime()),
    finished_at: Nullable(DateTime()),
    file_removed_at: Nullable(
      DateTime(
        'When retention removed the file (LEADFLOW_FILE_RETENTION_DAYS after it was finished); the record stays',
      ),
    ),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'File export' },
);

export const FileExportPage = Envelope(FileExport);
export const FileExportsQuery = ListQuery(exportSort, Object.keys(exportFilterFields));

/** The `fields` of an export: standard columns of the type, or custom field names of the team. */
export const ExportFields = (type: ExportType) =>
  Type.Array(
    Type.Unsafe<string>({
      anyOf: [
        { type: 'string', enum: standardColumns(type).map((column) => column.header) },
        {
          type: 'string',
          minLength: 1,
          description: 'The name of one of your custom fields (case and surrounding blanks do not matter)',
        },
      ],
    }),
    {
      minItems: 1,
      maxItems: 200,
      description:
        'Columns to write, in this order (default: every standard column, then one per custom field)',
    },
  );

const exportBody = <T extends TSchema>(filter: T, type: ExportType) =>
  Type.Object({ filter, fields: Type.Optional(ExportFields(type)) }, { additionalProperties: false });

/** Body of a contacts export: the selection language of POST /leads/api/leads/search (and mass actions). */
export const CreateLeadsExportBody = exportBody(
  Selection('contacts', LEAD_FILTER_KEYS, ['leadFilter']),
  'contact_export_csv',
);
/** Body of a companies export: the selection language of POST /leads/api/companies/list. */
export const CreateCompaniesExportBody = exportBody(
  Selection('companies', COMPANY_FILTER_KEYS),
  'account_export_csv',
);

export const DownloadBody = Type.Object(
  {
    file_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'file_name of a finished export' }),
    ),
    uuid: Type.Optional(Uuid('Or the export\u2019s uuid')),
  },
  {
    additionalProperties: false,
    ...anyPresent(
      ['file_name', 'uuid'],
      'is required (the file_name of a finished export); or give its uuid',
    ),
  },
);

withExample(CreateLeadsExportBody, { filter: { all: true }, fields: ['name', 'work_email', 'company_name'] });
withExample(CreateCompaniesExportBody, { filter: { all: true }, fields: ['name', 'domain'] });
withExample(DownloadBody, { uuid: '0190f000-0000-7000-8000-000000000001' });
