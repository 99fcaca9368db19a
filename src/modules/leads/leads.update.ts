// PUT /leads/api/leads/{uuid}: standard fields and custom field values. Null clears a field; identifiers are re-checked
// against the other contacts by the unique deduplication indexes (409 on a collision).
import type { Database } from '../../db/database.js';
import { invalidField, notFound } from '../../lib/errors.js';
import { resolveCustomFieldInput } from '../custom-fields/custom-field-values.js';
import { selectCustomFieldDefinitions } from '../custom-fields/custom-fields.repository.js';
import {
  diffColumns,
  mergeCustomFields,
  sameValue,
  withDedupConflicts,
  writeLeadChanges,
} from './leads.changes.js';
import { CONTACT_NEEDS, isIdentifiable, type LeadColumns, normalizeLeadInput } from './leads.input.js';
import type { LeadRow } from './leads.present.js';
import { requireLeadStage, requireList, resolveTagInputs } from './leads.references.js';
import { lockLead } from './leads.repository.js';

function fullName(first: unknown, last: unknown): string | null {
  return [first, last].filter((part) => typeof part === 'string' && part !== '').join(' ') || null;
}

export async function updateLead(
  db: Database,
  teamId: number,
  uuid: string,
  body: Record<string, unknown>,
): Promise<LeadRow> {
  const { custom_fields, list_uuid: rawList, pipeline_stage_uuid: rawStage, ...fields } = body;
  const list_uuid = typeof rawList === 'string' ? rawList.toLowerCase() : undefined;
  const pipeline_stage_uuid = typeof rawStage === 'string' ? rawStage.toLowerCase() : undefined;
  // Custom field values given here are merged into the contact's (null clears one), as on upsert.
  const customValues = custom_fields
    ? resolveCustomFieldInput(
        await selectCustomFieldDefinitions(db, teamId, 'lead'),
        custom_fields as Record<string, unknown>,
        'custom_fields',
      )
    : undefined;
  const lead = normalizeLeadInput(fields, '', { defaultName: false });
  let existing: LeadRow | undefined;
  return withDedupConflicts(
    db,
    teamId,
    () => ({ ...(existing ?? {}), ...lead.columns }),
    () =>
      db.transaction().execute(async (trx) => {
        existing = await lockLead(trx, teamId, uuid);
        if (!existing) throw notFound('Contact');
        if (list_uuid) await requireList(trx, teamId, list_uuid);
        if (pipeline_stage_uuid) await requireLeadStage(trx, teamId, pipeline_stage_uuid);
        const columns = { ...lead.columns };
        // A name that was derived from first + last name follows them; one set explicitly stays.
        if (!('name' in columns) && ('first_name' in columns || 'last_name' in columns)) {
          const derived = fullName(existing.first_name, existing.last_name);
          if (existing.name === null || existing.name === derived) {
            columns.name = fullName(
              'first_name' in columns ? columns.first_name : existing.first_name,
              'last_name' in columns ? columns.last_name : existing.last_name,
            );
          }
        }
        const changes = diffColumns(existing, columns, { skipNull: false });
        // Clearing every name and identifier would leave a contact nobody can find or match.
        if (!isIdentifiable({ ...(existing as LeadColumns), ...columns })) {
          const cleared = Object.keys(columns).find((key) => columns[key as keyof LeadColumns] === null);
          throw invalidField(
            cleared ?? 'name',
            `This update would leave the contact without a name or an identifier; ${CONTACT_NEEDS}.`,
          );
        }
        if (list_uuid && list_uuid !== existing.list_uuid) changes.list_uuid = list_uuid;
        if (pipeline_stage_uuid && pipeline_stage_uuid !== existing.pipeline_stage_uuid) {
          changes.pipeline_stage_uuid = pipeline_stage_uuid;
        }
        if (customValues) {
          const merged = mergeCustomFields(existing.custom_fields, customValues);
          if (!sameValue(merged, existing.custom_fields)) changes.custom_fields = merged;
        }
        if (lead.tags) {
          const [tags] = await resolveTagInputs(trx, teamId, [{ path: 'tags', values: lead.tags }]);
          if (!sameValue([...tags!].sort(), [...existing.tags].sort())) changes.tags = tags;
        }
        return (await writeLeadChanges(trx, teamId, existing, changes, lead.domain)) ?? existing;
      }),
  );
}
