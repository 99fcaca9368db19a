// The contact mass action `contact_export_csv` (PUT /leads/api/leads/mass-action): the same CSV export as
// POST /leads/api/file-exports/leads, of the selected contacts minus the blacklisted ones (as for every
// mass action); payload.fields picks the columns. src/app.ts hands it to the contacts' mass-action route,
// so the leads module imports nothing of this one.
import { Type } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { assertMassActionPayload } from '../leads/leads.mass-actions.js';
import type { ContactExportAction } from '../leads/leads-bulk.schemas.js';
import { ExportFields, FileExport } from './exports.schemas.js';
import type { ExportsService } from './exports.service.js';

export function contactExportMassAction(exports: ExportsService): ContactExportAction {
  return {
    type: 'contact_export_csv',
    payload: Type.Optional(
      Nullable(
        Type.Object(
          { fields: Type.Optional(ExportFields('contact_export_csv')) },
          {
            additionalProperties: false,
            description: 'Queues a CSV export of the selection and answers it as "export"',
          },
        ),
      ),
    ),
    record: FileExport,
    queue(actor, body) {
      const fields = assertMassActionPayload(body.payload).fields as string[] | undefined;
      return exports.createExport(
        actor,
        'contact_export_csv',
        { filter: body.filter as Record<string, unknown>, ...(fields ? { fields } : {}) },
        { skipBlacklisted: true },
      );
    },
  };
}
