// Writing changes to one existing contact, shared by PUT and upsert: work out what really changes,
// write it in one statement, then keep the derived state in step (blacklist flag, company link), and
// turn a collision on a deduplication index into a 409 that names the key and the other contact.
import { sql } from 'kysely';
import { constraintOf } from '../../db/citus.js';
import type { Database, Executor } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { type ActivityInput, recordActivities } from '../activities/activities.repository.js';
import { changeActivities } from '../activities/change-activities.js';
import { refreshLeadBlacklistFlags } from '../blacklists/blacklist-match.js';
import { linkLeadsToCompanies } from './company-links.js';
import type { LeadColumns } from './leads.input.js';
import type { LeadRow } from './leads.present.js';
import { selectCompanyByDomain, selectLead, updateLeadColumns } from './leads.repository.js';

/** JSON with sorted keys, so jsonb (which reorders keys) compares equal to what was sent. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );
}

export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a ?? null) === canonical(b ?? null);
}

/** The columns of `columns` whose value differs from the stored contact (`skipNull`: nulls keep it). */
export function diffColumns(existing: LeadRow, columns: LeadColumns, options: { skipNull: boolean }) {
  const changes: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(columns)) {
    if (value === undefined || (options.skipNull && value === null)) continue;
    if (!sameValue(existing[column as keyof LeadRow], value)) changes[column] = value;
  }
  return changes;
}

export function mergeCustomFields(stored: Record<string, unknown>, values: Record<string, unknown>) {
  const merged = { ...stored };
  for (const [uuid, value] of Object.entries(values)) {
    if (value === null) delete merged[uuid];
    else merged[uuid] = value;
  }
  return merged;
}

const BLACKLIST_INPUTS = ['linkedin', 'ln_id', 'work_email', 'personal_email', 'name', 'company_name'];

/**
 * Writes `changes` to the locked contact `existing` and re-derives its blacklist flag and company link
 * when their inputs changed. `domain` links it to the team's company with that domain. Returns the
 * contact as stored afterwards, or undefined when there was nothing to change.
 */
export async function writeLeadChanges(
  trx: Executor,
  teamId: number,
  existing: LeadRow,
  changes: Record<string, unknown>,
  domain?: string,
): Promise<LeadRow | undefined> {
  let relink = false;
  if (domain) {
    const company = await selectCompanyByDomain(trx, teamId, domain);
    if (company && company.uuid !== existing.company_uuid) changes.company_uuid = company.uuid;
  }
  if (!('company_uuid' in changes) && ('company_name' in changes || 'work_email' in changes)) {
    changes.company_uuid = null;
    relink = true;
  }
  if (Object.keys(changes).length === 0) return undefined;
  await updateLeadColumns(trx, teamId, existing.uuid, changes);
  await recordActivities(trx, teamId, timelineChanges(existing, changes));
  if (BLACKLIST_INPUTS.some((column) => column in changes)) {
    await refreshLeadBlacklistFlags(trx, teamId, { uuids: [existing.uuid] });
  }
  if (relink) await linkLeadsToCompanies(trx, teamId, { leadUuids: [existing.uuid] });
  return selectLead(trx, teamId, existing.uuid);
}

/** The activities of one contact's change: list, pipeline stage, tags added and removed. */
function timelineChanges(existing: LeadRow, changes: Record<string, unknown>): ActivityInput[] {
  return changeActivities(existing, changes).map((activity) => ({
    ...activity,
    objectType: 'lead',
    objectUuid: existing.uuid,
  }));
}

const KEY_OF_INDEX: Record<string, string[]> = {
  leads_team_ln_member_id_key: ['ln_member_id'],
  leads_team_ln_id_key: ['ln_id'],
  leads_team_sn_id_key: ['sn_id'],
  leads_team_linkedin_key: ['linkedin'],
  leads_team_work_email_key: ['work_email'],
  leads_team_personal_email_key: ['personal_email'],
  leads_team_name_company_key: ['name', 'company_name'],
};

/**
 * Runs `work` (a transaction); a unique violation on a contact deduplication index becomes a 409
 * naming the key and the contact that already holds it.
 */
export async function withDedupConflicts<T>(
  db: Database,
  teamId: number,
  values: () => LeadColumns,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const constraint = constraintOf(error);
    const keys =
      (error as { code?: string }).code === '23505' && constraint ? KEY_OF_INDEX[constraint] : undefined;
    if (!keys) throw error;
    const given = values();
    const holder = await findHolder(db, teamId, keys, given);
    const label = keys.join(' + ');
    const message =
      `Another contact${holder ? ` (${holder})` : ''} already has this ${label}; ` +
      'each contact\u2019s LinkedIn ids, e-mails (and name + company for contacts without them) are unique.';
    throw new AppError('conflict', message, {
      ...Object.fromEntries(keys.map((key) => [key, [message]])),
      ...(holder ? { existing_uuid: holder } : {}),
    });
  }
}

async function findHolder(db: Database, teamId: number, keys: string[], given: LeadColumns) {
  const conditions = keys.map((key) =>
    key === 'name' || key === 'company_name'
      ? sql`lower(${sql.ref(key)}) = lower(${String(given[key as keyof LeadColumns] ?? '')})`
      : sql`${sql.ref(key)} = ${given[key as keyof LeadColumns] ?? null}`,
  );
  const row = await sql<{ uuid: string }>`
    select uuid from leads where team_id = ${teamId} and ${sql.join(conditions, sql` and `)} limit 1
  `.execute(db);
  return row.rows[0]?.uuid;
}
