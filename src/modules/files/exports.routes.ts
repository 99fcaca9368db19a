import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { UuidParams } from '../../http/schemas.js';
import { exportFilterFields } from './exports.repository.js';
import {
  CreateCompaniesExportBody,
  CreateLeadsExportBody,
  DownloadBody,
  FileExport,
  FileExportPage,
  FileExportsQuery,
} from './exports.schemas.js';
import type { FilesService } from './files.service.js';

const tags = ['File exports'];

const exportHelp =
  'Returns the export record with status queued; a background job writes the matching records to a CSV file ' +
  '(UTF-8 with BOM; cells a spreadsheet would run as formulas get a leading apostrophe), then sets status done ' +
  'and file_name and records one webhook event per exported record. Poll GET /leads/api/file-exports/{uuid}.';

export const fileExportsRoutes: FastifyPluginAsyncTypebox<{ files: FilesService }> = async (
  app,
  { files },
) => {
  app.post(
    '/leads/api/file-exports/leads',
    {
      schema: {
        tags,
        operationId: 'exportLeads',
        summary: 'Export contacts to CSV',
        description:
          `${exportHelp} Columns: the standard contact fields, list_name, pipeline_stage_name, tags (names joined ` +
          'by ", ") and one column per custom field named by the field. Event: contact_exported per contact.',
        body: CreateLeadsExportBody,
        response: { 200: FileExport },
      },
    },
    async (request) => {
      const { teamId, userId } = authOf(request);
      return files.exports.createExport({ teamId, userId }, 'contact_export_csv', request.body);
    },
  );

  app.post(
    '/leads/api/file-exports/companies',
    {
      schema: {
        tags,
        operationId: 'exportCompanies',
        summary: 'Export companies to CSV',
        description:
          `${exportHelp} Columns: the standard company fields, pipeline_stage_name, lists and tags (names joined by ` +
          '", ") and one column per custom field. Event: account_exported per company.',
        body: CreateCompaniesExportBody,
        response: { 200: FileExport },
      },
    },
    async (request) => {
      const { teamId, userId } = authOf(request);
      return files.exports.createExport({ teamId, userId }, 'account_export_csv', request.body);
    },
  );

  app.get(
    '/leads/api/file-exports',
    {
      config: { filterFields: Object.keys(exportFilterFields) },
      schema: {
        tags,
        operationId: 'listFileExports',
        summary: 'List file exports',
        querystring: FileExportsQuery,
        response: { 200: FileExportPage },
      },
    },
    async (request) => files.exports.listExports(authOf(request).teamId, request.query),
  );

  app.get(
    '/leads/api/file-exports/:uuid',
    {
      schema: {
        tags,
        operationId: 'getFileExport',
        summary: 'Get a file export (status)',
        params: UuidParams,
        response: { 200: FileExport },
      },
    },
    async (request) => files.exports.getExport(authOf(request).teamId, request.params.uuid),
  );

  app.post(
    '/leads/api/file-exports/download',
    {
      schema: {
        tags,
        operationId: 'downloadFileExport',
        summary: 'Download an export file',
        description:
          'Streams the CSV of a finished export of your team, named by file_name (or by the export\u2019s uuid). ' +
          'Another team\u2019s file, an unfinished export or an unknown name: 404.',
        body: DownloadBody,
        response: {
          200: {
            description: 'The CSV file',
            content: { 'text/csv': { schema: { type: 'string', description: 'CSV text' } } },
          },
          404: errorResponse(404, 'no finished export of your team has that file_name or uuid'),
        },
      },
    },
    async (request, reply) => {
      const file = await files.exports.download(authOf(request).teamId, request.body);
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .header('content-length', file.size)
          // The schema documents the CSV as a string; a stream is sent as is.
          .send(file.stream as unknown as string)
      );
    },
  );
};
