// Creating contacts: the bulk create (up to 1000 in one insert) and the upsert that deduplicates one
// contact by the spec's seven keys.
import { sql } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { AppError, conflict, invalidField } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { resolveCustomFieldInput } from '../custom-fields/custom-field-values.js';
import type { CustomFieldDefinition } from '../custom-fields/custom-fields.repository.js';
import { selectInitialStageUuid } from '../pipeline-stages/pipeline-stages.defaults.js';
import { linkLeadsToCompanies } from './company-links.js';
import { type InsertLead, insertLeadRows } from './leads.batch.repository.js';
import {
  diffColumns,
  mergeCustomFields,
  sameValue,
  withDedupConflicts,
  writeLeadChanges,
} from './leads.changes.js';
import {
  hasMatchKey,
  type MatchKeys,
  matchKeysOf,
  type NormalizedLead,
  normalizeLeadInput,
  requireIdentifiable,
  withNameParts,
} from './leads.input.js';
import type { LeadRow } from './leads.present.js';
import { requireList, resolveTagInputs } from './leads.references.js';
import { lockLead, matchLeads } from './leads.repository.js';

export type Actor = { teamId: number; userId: number };
export type CreateStatus = 'created' | 'duplicate';
export type UpsertStatus = 'created' | 'updated' | 'unchanged';

/** Values without a value are left out of a new record (null only clears existing values). */
function withoutNulls(values: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
}

async function prepareInserts(
  trx: Executor,
  teamId: number,
  leads: NormalizedLead[],
  customFields: Record<string, unknown>[],
  paths: string[],
): Promise<InsertLead[]> {
  const tags = await resolveTagInputs(
    trx,
    teamId,
    leads.map((lead, index) => ({ path: `${paths[index]}tags`, values: lead.tags ?? [] })),
  );
  return leads.map((lead, index) => ({
    ord: index,
    uuid: newId(),
    columns: withNameParts(lead.columns),
    tags: tags[index]!,
    customFields: withoutNulls(customFields[index]!),
    ...(lead.domain ? { domain: lead.domain } : {}),
  }));
}

/** Inserts contacts, links them to companies and returns the stored rows (uuid → row). */
async function insertAndLink(
  trx: Executor,
  actor: Actor,
  listUuid: string,
  rows: InsertLead[],
): Promise<Map<string, LeadRow>> {
  const stageUuid = await selectInitialStageUuid(trx, actor.teamId, 'lead');
  let inserted = await insertLeadRows(trx, { ...actor, listUuid, stageUuid }, rows, {
    returning: 'rows',
    blacklist: 'check',
  });
  const uuids = inserted.map((row) => row.uuid);
  if ((await linkLeadsToCompanies(trx, actor.teamId, { leadUuids: uuids })) > 0) {
    inserted = await trx
      .selectFrom('leads')
      .selectAll()
      .where('team_id', '=', actor.teamId)
      .where('uuid', 'in', uuids)
      .execute();
  }
  return new Map(inserted.map((row) => [row.uuid, row]));
}

/**
 * Bulk create. Every input gets one entry in the result, in input order: the new contact, or - when
 * the input duplicates an existing contact or an earlier input of the same request by a deduplication
 * key - the contact it duplicates, unchanged, with status `duplicate`.
 */
export async function createLeads(
  db: Database,
  actor: Actor,
  definitions: CustomFieldDefinition[],
  body: { list_uuid: string; leads: Record<string, unknown>[] },
): Promise<Array<{ row: LeadRow; status: CreateStatus }>> {
  const normalized = body.leads.map((lead, index) => {
    const input = normalizeLeadInput(lead, `leads.${index}`, { defaultName: true });
    requireIdentifiable(input.columns, `leads.${index}`);
    return input;
  });
  const customFields = normalized.map((lead, index) =>
    lead.customFields
      ? resolveCustomFieldInput(definitions, lead.customFields, `leads.${index}.custom_fields`)
      : {},
  );
  return db.transaction().execute(async (trx) => {
    await requireList(trx, actor.teamId, body.list_uuid);
    const paths = normalized.map((_, index) => `leads.${index}.`);
    const rows = await prepareInserts(trx, actor.teamId, normalized, customFields, paths);
    const inserted = await insertAndLink(trx, actor, body.list_uuid, rows);
    const skipped = rows.filter((row) => !inserted.has(row.uuid));
    const matches = await matchLeads(
      trx,
      actor.teamId,
      skipped.map((row) => ({ ord: row.ord, ...matchKeysOf(row.columns) })),
    );
    return rows.map((row) => {
      const created = inserted.get(row.uuid);
      if (created) return { row: created, status: 'created' as const };
      const existing = matches.get(row.ord);
      // Only a concurrent delete of the contact we collided with gets here; retrying succeeds.
      if (!existing)
        throw conflict(`leads.${row.ord} collided with a contact that was deleted meanwhile; retry.`);
      return { row: existing, status: 'duplicate' as const };
    });
  });
}

export type UpsertBody = {
  lead: Record<string, unknown>;
  custom_fields?: Record<string, unknown>;
  list_uuid: string;
  update_if_exists?: boolean;
  move_to_list?: boolean;
};

/**
 * Serialises upserts of the same name + company: that key is unique only among contacts without
 * other identifiers, so two concurrent upserts could otherwise both miss and both insert.
 */
async function lockNameKey(trx: Executor, teamId: number, keys: MatchKeys) {
  if (keys.name === null || keys.company_name === null) return;
  const key = JSON.stringify(['leads', teamId, keys.name.toLowerCase(), keys.company_name.toLowerCase()]);
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

export type UpsertOptions = {
  /** A matched contact is left as it is (the answer says `skipped`). */
  skipIfExists?: boolean;
  /** More work on the written contact inside the upsert's transaction (a throw undoes the upsert). */
  afterWrite?: (trx: Executor, row: LeadRow) => Promise<void>;
};

export async function upsertLead(
  db: Database,
  actor: Actor,
  definitions: CustomFieldDefinition[],
  body: UpsertBody,
  options: UpsertOptions = {},
): Promise<{ row: LeadRow; status: UpsertStatus; skipped?: true }> {
  const lead = normalizeLeadInput(body.lead, 'lead', { defaultName: true });
  requireIdentifiable(lead.columns, 'lead');
  const keys = matchKeysOf(lead.columns);
  // Upsert exists to match: a contact known only by its name cannot be matched, so it is refused here
  // (create and import store it as a new contact).
  if (!hasMatchKey(keys)) {
    throw invalidField(
      'lead',
      'lead needs a key to match on: linkedin_id (or ln_member_id, ln_id, sn_id, linkedin), email (or ' +
        'work_email, personal_email), or name together with company_name. A contact known only by its name ' +
        'cannot be deduplicated: create it with POST /leads/api/leads.',
    );
  }
  const customFields = {
    ...(lead.customFields
      ? resolveCustomFieldInput(definitions, lead.customFields, 'lead.custom_fields')
      : {}),
    ...(body.custom_fields ? resolveCustomFieldInput(definitions, body.custom_fields, 'custom_fields') : {}),
  };
  const updateIfExists = body.update_if_exists ?? true;
  return withDedupConflicts(
    db,
    actor.teamId,
    () => lead.columns,
    () =>
      db.transaction().execute(async (trx) => {
        await requireList(trx, actor.teamId, body.list_uuid);
        await lockNameKey(trx, actor.teamId, keys);
        let match = (await matchLeads(trx, actor.teamId, [{ ord: 0, ...keys }])).get(0);
        if (!match) {
          const [row] = await prepareInserts(trx, actor.teamId, [lead], [customFields], ['lead.']);
          const created = (await insertAndLink(trx, actor, body.list_uuid, [row!])).get(row!.uuid);
          if (created) {
            await options.afterWrite?.(trx, created);
            return { row: created, status: 'created' as const };
          }
          // A concurrent upsert created the same person first: continue with that contact.
          match = (await matchLeads(trx, actor.teamId, [{ ord: 0, ...keys }])).get(0);
          if (!match) throw new AppError('conflict', 'The contact changed concurrently; retry the upsert.');
        }
        const existing = (await lockLead(trx, actor.teamId, match.uuid))!;
        if (options.skipIfExists)
          return { row: existing, status: 'unchanged' as const, skipped: true as const };
        const changes: Record<string, unknown> = {};
        if (updateIfExists) {
          Object.assign(changes, diffColumns(existing, lead.columns, { skipNull: true }));
          const [tags] = await resolveTagInputs(trx, actor.teamId, [
            { path: 'lead.tags', values: lead.tags ?? [] },
          ]);
          const allTags = [...new Set([...existing.tags, ...tags!])];
          if (allTags.length !== existing.tags.length) changes.tags = allTags;
          const merged = mergeCustomFields(existing.custom_fields, customFields);
          if (!sameValue(merged, existing.custom_fields)) changes.custom_fields = merged;
        }
        if (body.move_to_list && existing.list_uuid !== body.list_uuid) changes.list_uuid = body.list_uuid;
        const updated = await writeLeadChanges(
          trx,
          actor.teamId,
          existing,
          changes,
          updateIfExists ? lead.domain : undefined,
        );
        await options.afterWrite?.(trx, updated ?? existing);
        return updated
          ? { row: updated, status: 'updated' as const }
          : { row: existing, status: 'unchanged' as const };
      }),
  );
}
