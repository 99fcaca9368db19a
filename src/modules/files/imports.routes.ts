import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { errorRef, errorResponse } from '../../http/openapi.js';
import { UuidParams } from '../../http/schemas.js';
import { AppError } from '../../lib/errors.js';
import type { FilesService } from './files.service.js';
import { importTargets } from './import-mapping.js';
import { importFilterFields } from './imports.repository.js';
import {
  FileImport,
  FileImportPage,
  FileImportsQuery,
  ImportCompaniesBody,
  ImportLeadsBody,
  ImportTargets,
  ImportTargetsQuery,
} from './imports.schemas.js';
import { tooLarge, type UploadPart } from './uploads.js';

const tags = ['File imports'];

// Multipart framing around the file: boundaries and the small text fields.
const MULTIPART_OVERHEAD = 64 * 1024;

// No `type: object`: the multipart body is read by the handler as a stream, not parsed into an object,
// so this schema only documents it.
const UploadForm = {
  content: {
    'multipart/form-data': {
      schema: {
        properties: {
          file: {
            type: 'string',
            contentMediaType: 'text/csv',
            description: 'The CSV file (header row first); UTF-8 with or without BOM, UTF-16 or Windows-1252',
          },
          type: {
            type: 'string',
            enum: ['csv_leads', 'csv_companies'],
            description: 'What the file holds (default csv_leads); the import endpoint decides in the end',
          },
        },
        required: ['file'],
        additionalProperties: false,
        examples: [{ file: 'name,email\nJane Doe,jane@acme.example\n', type: 'csv_leads' }],
      },
    },
  },
};

export const fileImportsRoutes: FastifyPluginAsyncTypebox<{ files: FilesService }> = async (
  app,
  { files },
) => {
  await app.register(multipart, {
    limits: { fileSize: files.uploadMaxBytes, files: 2, fields: 20, fieldSize: 64 * 1024, parts: 30 },
    throwFileSizeLimit: false,
  });

  app.post(
    '/leads/api/file-imports/upload-csv',
    {
      onRequest: async (request) => {
        const length = Number(request.headers['content-length']);
        if (length > files.uploadMaxBytes + MULTIPART_OVERHEAD) throw tooLarge(files.uploadMaxBytes);
      },
      schema: {
        tags,
        operationId: 'uploadCsv',
        summary: 'Upload a CSV file',
        description:
          'multipart/form-data with the file in the field "file". The file is stored, its encoding (UTF-8 with or ' +
          'without BOM, UTF-16, Windows-1252) and delimiter (comma, semicolon, tab, pipe) detected and its rows ' +
          'counted. Returns the file-import record (status uploaded) with headers and sample rows to build the ' +
          'mapping from; then start POST /leads/api/file-imports/{uuid}/import-leads or /import-companies. Over ' +
          'the size limit (LEADFLOW_UPLOAD_MAX_BYTES, default 100 MB): 413. Not a CSV: 422.',
        consumes: ['multipart/form-data'],
        body: UploadForm,
        response: {
          200: FileImport,
          409: errorResponse(409, 'an import of the file started at the same moment'),
          413: { ...errorRef, description: 'payload_too_large: the file is larger than the upload limit' },
        },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw new AppError(
          'unsupported_media_type',
          'Upload the CSV as multipart/form-data with the file in the field "file".',
          { file: ['send multipart/form-data'] },
        );
      }
      const { teamId, userId } = authOf(request);
      return files.imports.upload({ teamId, userId }, request.parts() as AsyncIterable<UploadPart>);
    },
  );

  app.get(
    '/leads/api/file-imports/targets',
    {
      schema: {
        tags,
        operationId: 'listImportTargets',
        summary: 'The fields a CSV column can be mapped to',
        description:
          'Besides these, `custom_fields.<name>` maps to a custom field of the team (GET /leads/api/custom-fields) ' +
          'and null skips the column.',
        querystring: ImportTargetsQuery,
        response: { 200: ImportTargets },
      },
    },
    async (request) => ({ data: importTargets(request.query.type) }),
  );

  app.get(
    '/leads/api/file-imports',
    {
      config: { filterFields: Object.keys(importFilterFields) },
      schema: {
        tags,
        operationId: 'listFileImports',
        summary: 'List file imports',
        description: 'Newest first by default; filter by status, type, file_name, created_at.',
        querystring: FileImportsQuery,
        response: { 200: FileImportPage },
      },
    },
    async (request) => files.imports.listImports(authOf(request).teamId, request.query),
  );

  app.get(
    '/leads/api/file-imports/:uuid',
    {
      schema: {
        tags,
        operationId: 'getFileImport',
        summary: 'Get a file import (progress)',
        description:
          'Status and counters of the upload\u2019s import: total_rows, processed_rows, created_count, ' +
          'updated_count, duplicate_count, blacklisted_count, error_count and the first 100 row errors.',
        params: UuidParams,
        response: { 200: FileImport },
      },
    },
    async (request) => files.imports.getImport(authOf(request).teamId, request.params.uuid),
  );

  const mappingHelp =
    'columns is the ordered mapping [{"source": "<CSV header>", "target": "<field>"}] (target null skips the ' +
    'column; custom_fields.<name> fills a custom field; tags takes comma-separated tag names, created when ' +
    'missing); {"column_mapping": {"<header>": "<field>"}} is accepted too. The import runs in the background: ' +
    'rows are matched with the upsert rules (updated when update_if_exists, default true), blacklisted rows are ' +
    'skipped and bad rows recorded with their row number while the rest go in. Poll GET ' +
    '/leads/api/file-imports/{uuid}. 409 while an import of the file runs.';

  app.post(
    '/leads/api/file-imports/:uuid/import-leads',
    {
      schema: {
        tags,
        operationId: 'importLeads',
        summary: 'Import contacts from an uploaded file',
        description: `${mappingHelp} Contacts go into list_uuid (default: a new list named after the file).`,
        params: UuidParams,
        body: ImportLeadsBody,
        response: {
          200: FileImport,
          409: errorResponse(409, 'the upload is being imported already, or its file was removed'),
        },
      },
    },
    async (request) => {
      const { teamId, userId } = authOf(request);
      return files.imports.importLeads({ teamId, userId }, request.params.uuid, request.body);
    },
  );

  app.post(
    '/leads/api/file-imports/:uuid/import-companies',
    {
      schema: {
        tags,
        operationId: 'importCompanies',
        summary: 'Import companies from an uploaded file',
        description: `${mappingHelp} Companies are added to list_uuids.`,
        params: UuidParams,
        body: ImportCompaniesBody,
        response: {
          200: FileImport,
          409: errorResponse(409, 'the upload is being imported already, or its file was removed'),
        },
      },
    },
    async (request) => {
      const { teamId, userId } = authOf(request);
      return files.imports.importCompanies({ teamId, userId }, request.params.uuid, request.body);
    },
  );
};
