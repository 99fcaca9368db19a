import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import { exportFilterFields, exportSort } from './exports.repository.js';

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

export const CreateExportBody = Type.Object(
  {
    filter: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Which records: {"all": true} for all of them, {"ids": [...]}, and/or search filter keys (the same language ' +
        'as POST /leads/api/leads/search or /leads/api/companies/list); "excludeIds" leaves records out.',
    }),
    fields: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        minItems: 1,
        maxItems: 200,
        description:
          'Columns to write, in this order (default: every standard column, then one per custom field)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const DownloadBody = Type.Object(
  {
    file_name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'file_name of a finished export' }),
    ),
    uuid: Type.Optional(Uuid('Or the export\u2019s uuid')),
  },
  { additionalProperties: false },
);

withExample(CreateExportBody, { filter: { all: true }, fields: ['name', 'work_email', 'company_name'] });
withExample(DownloadBody, { uuid: '0190f000-0000-7000-8000-000000000001' });
