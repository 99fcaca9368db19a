// Writing one chunk of CSV rows as contacts, set-based, with the upsert endpoint's rules: rows are
// normalised by the same input normaliser (normalizeLeadInput), matched by the same function
// (matchLeads: the spec's seven keys in order) and, when they match, changed the way an upsert with
// update_if_exists changes a contact (diffColumns / mergeCustomFields; tags added; list moved only with
// move_to_list). So importing a file and upserting the same people agree.
//
// Rows of one chunk that share a deduplication key with an earlier row of the chunk wait for a later
// round, where they match the contact the earlier row created or updated - the same outcome as
// upserting the rows one after another, at a few statements per round instead of per row.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { refreshLeadBlacklistFlags } from '../blacklists/blacklist-match.js';
import type { CustomFieldValue } from '../custom-fields/custom-field-values.js';
import { linkLeadsToCompanies } from '../leads/company-links.js';
import { identifierClashes, insertLeadRows, updateLeadRows } from '../leads/leads.batch.repository.js';
import { diffColumns, mergeCustomFields, sameValue } from '../leads/leads.changes.js';
import {
  CONTACT_NEEDS,
  isIdentifiable,
  type LeadColumns,
  type MatchKeys,
  matchKeysOf,
  normalizeLeadInput,
  withNameParts,
} from '../leads/leads.input.js';
import type { LeadRow } from '../leads/leads.present.js';
import { matchLeads } from '../leads/leads.repository.js';
import { upsertTagsByName } from '../tags/tags.repository.js';
import { blacklistedRows, companiesByDomain, rowsMatchingByName, teamFacts } from './import-leads.sql.js';
import type { MappedColumn } from './import-mapping.js';
import { type ChunkCounts, emptyCounts, type SourceRow } from './import-types.js';
import { RowError, readRow, rowErrorFrom } from './import-values.js';

type Trx = Executor;

export type LeadImportOptions = {
  teamId: number;
  userId: number | null;
  listUuid: string;
  stageUuid: string;
  moveToList: boolean;
  updateIfExists: boolean;
  /** Tags added to every imported contact. */
  tagUuids: string[];
  dataSourceUuid: string | null;
  columns: MappedColumn[];
};

type PreparedLead = {
  row: number;
  uuid: string;
  columns: LeadColumns;
  keys: MatchKeys;
  /** Every key value, namespaced ("w:jane@acme.com"), to find rows of a chunk that may be one person. */
  keyValues: string[];
  tagNames: string[];
  tags: string[];
  customFields: Record<string, CustomFieldValue>;
  domain?: string;
};

const NO_IDENTITY = `the row has no name and no identifier (${CONTACT_NEEDS}).`;

function keyValuesOf(keys: MatchKeys): string[] {
  const values: string[] = [];
  if (keys.ln_member_id !== null) values.push(`m:${keys.ln_member_id}`);
  if (keys.ln_id !== null) values.push(`i:${keys.ln_id}`);
  if (keys.sn_id !== null) values.push(`s:${keys.sn_id}`);
  if (keys.linkedin !== null) values.push(`l:${keys.linkedin}`);
  if (keys.work_email !== null) values.push(`w:${keys.work_email}`);
  if (keys.personal_email !== null) values.push(`p:${keys.personal_email}`);
  if (keys.name !== null && keys.company_name !== null) {
    values.push(`n:${keys.name.toLowerCase()}\u0000${keys.company_name.toLowerCase()}`);
  }
  return values;
}

/** Normalises a chunk's rows in memory; rows that cannot be imported become errors. */
export function prepareLeadRows(rows: SourceRow[], columns: MappedColumn[]) {
  const prepared: PreparedLead[] = [];
  const errors: Array<{ row: number; reason: string }> = [];
  for (const { row, cells } of rows) {
    try {
      const values = readRow(cells, columns);
      const lead = normalizeLeadInput(values.input, '', { defaultName: true });
      // A row known only by its name is created like POST /leads/api/leads creates it; it has no key to
      // be deduplicated by (counted in undeduplicated_count).
      if (!isIdentifiable(lead.columns)) throw new RowError(NO_IDENTITY);
      const keys = matchKeysOf(lead.columns);
      prepared.push({
        row,
        uuid: newId(),
        columns: lead.columns,
        keys,
        keyValues: keyValuesOf(keys),
        tagNames: values.tagNames,
        tags: [],
        customFields: values.customFields,
        ...(lead.domain ? { domain: lead.domain } : {}),
      });
    } catch (error) {
      if (error instanceof RowError) errors.push({ row, reason: error.reason });
      else if (error instanceof AppError) errors.push({ row, reason: rowErrorFrom(error, columns).reason });
      else throw error;
    }
  }
  return { prepared, errors };
}

/** Splits rows (in file order) into those sharing no key with an earlier row, and the rest. */
function splitIndependent(rows: PreparedLead[]) {
  const seen = new Set<string>();
  const now: PreparedLead[] = [];
  const later: PreparedLead[] = [];
  for (const row of rows) {
    (row.keyValues.some((value) => seen.has(value)) ? later : now).push(row);
    for (const value of row.keyValues) seen.add(value);
  }
  return { now, later };
}

const BLACKLIST_INPUTS = ['linkedin', 'ln_id', 'work_email', 'personal_email', 'name', 'company_name'];

type Update = { row: PreparedLead; existing: LeadRow; changes: Record<string, unknown>; relink: boolean };

const asChange = (update: Update) => ({ uuid: update.existing.uuid, changes: update.changes });

/** The changes an upsert of `row` would make to `existing` (see upsertLead / updateLeadRows). */
function changesFor(
  row: PreparedLead,
  existing: LeadRow,
  options: LeadImportOptions,
  companyByDomain: Map<string, string>,
): Update {
  const changes: Record<string, unknown> = {};
  if (options.updateIfExists) {
    Object.assign(changes, diffColumns(existing, row.columns, { skipNull: true }));
    const tags = [...new Set([...existing.tags, ...row.tags])];
    if (tags.length !== existing.tags.length) changes.tags = tags;
    const merged = mergeCustomFields(existing.custom_fields, row.customFields);
    if (!sameValue(merged, existing.custom_fields)) changes.custom_fields = merged;
    const company = row.domain ? companyByDomain.get(row.domain) : undefined;
    if (company && company !== existing.company_uuid) changes.company_uuid = company;
  }
  if (options.moveToList && existing.list_uuid !== options.listUuid) changes.list_uuid = options.listUuid;
  let relink = false;
  if (!('company_uuid' in changes) && ('company_name' in changes || 'work_email' in changes)) {
    changes.company_uuid = null;
    relink = true;
  }
  return { row, existing, changes, relink };
}

/**
 * Applies the matched rows' changes. Returns the rows that changed their contact, the ones that
 * left it as it was, and rows refused because they would break a uniqueness rule.
 */
async function applyUpdates(trx: Trx, options: LeadImportOptions, updates: Update[]) {
  const errors: Array<{ row: number; reason: string }> = [];
  const clashes = await identifierClashes(trx, options.teamId, updates.map(asChange));
  const writable = updates.filter((update) => {
    const key = clashes.get(update.existing.uuid);
    if (key) {
      errors.push({
        row: update.row.row,
        reason: `its ${key} belongs to another contact, while its other identifiers match contact ${update.existing.uuid}.`,
      });
    }
    return !key;
  });
  if (writable.length > 0) {
    await sql`savepoint leadflow_import_update`.execute(trx);
    try {
      await updateLeadRows(trx, options.teamId, writable.map(asChange));
    } catch (error) {
      // Name + company is unique only among contacts without identifiers, so a rare update can still
      // collide; retry those rows one by one and refuse the ones that do.
      if ((error as { code?: string }).code !== '23505') throw error;
      await sql`rollback to savepoint leadflow_import_update`.execute(trx);
      const kept: Update[] = [];
      for (const update of writable) {
        await sql`savepoint leadflow_import_row`.execute(trx);
        try {
          await updateLeadRows(trx, options.teamId, [asChange(update)]);
          kept.push(update);
        } catch (rowError) {
          if ((rowError as { code?: string }).code !== '23505') throw rowError;
          await sql`rollback to savepoint leadflow_import_row`.execute(trx);
          errors.push({ row: update.row.row, reason: 'its name and company belong to another contact.' });
        }
      }
      writable.splice(0, writable.length, ...kept);
    }
  }
  const uuids = (pick: (update: Update) => boolean) =>
    writable.filter(pick).map((update) => update.existing.uuid);
  await refreshLeadBlacklistFlags(trx, options.teamId, {
    uuids: uuids((update) => BLACKLIST_INPUTS.some((column) => column in update.changes)),
  });
  await linkLeadsToCompanies(trx, options.teamId, { leadUuids: uuids((update) => update.relink) });
  return { updated: writable.length, errors };
}

/** A row that lost every insert race of a chunk; practically only under concurrent writers. */
const MAX_INSERT_ATTEMPTS = 3;

/** Writes the prepared rows of one chunk inside `trx` and counts what happened to each. */
export async function writeLeadChunk(
  trx: Trx,
  options: LeadImportOptions,
  prepared: PreparedLead[],
): Promise<ChunkCounts> {
  const counts = emptyCounts();
  const facts = await teamFacts(trx, options.teamId);
  const names = prepared.flatMap((row) => row.tagNames);
  const byName = names.length > 0 ? await upsertTagsByName(trx, options.teamId, names) : new Map();
  for (const row of prepared) {
    const named = row.tagNames.map((name) => byName.get(name.toLowerCase()) as string);
    row.tags = [...new Set([...options.tagUuids, ...named])];
  }
  const blacklisted = facts.blacklist
    ? await blacklistedRows(trx, options.teamId, prepared)
    : new Set<number>();
  counts.blacklisted += blacklisted.size;
  const attempts = new Map<number, number>();
  let pending = prepared.filter((row) => !blacklisted.has(row.row));
  const retry = (row: PreparedLead, deferred: PreparedLead[]) => {
    const attempt = (attempts.get(row.row) ?? 0) + 1;
    attempts.set(row.row, attempt);
    if (attempt < MAX_INSERT_ATTEMPTS) deferred.push(row);
    else {
      counts.errors.push({
        row: row.row,
        reason: 'it collided with a contact written at the same time; import it again.',
      });
    }
  };
  const insert = async (rows: PreparedLead[]) => {
    // The rows were checked against the blacklist already (blacklistedRows), so their flag is false.
    const result = await insertLeadRows(
      trx,
      options,
      rows.map((row) => ({ ...row, ord: row.row, columns: withNameParts(row.columns) })),
      { returning: 'uuids', blacklist: false, companies: facts.companies },
    );
    const inserted = new Set(result.map((row) => row.uuid));
    if (facts.companies) await linkLeadsToCompanies(trx, options.teamId, { leadUuids: [...inserted] });
    counts.created += inserted.size;
    counts.undeduplicated += rows.filter(
      (row) => row.keyValues.length === 0 && inserted.has(row.uuid),
    ).length;
    return inserted;
  };
  while (pending.length > 0) {
    const { now, later } = splitIndependent(pending);
    const deferred = [...later];
    // New people go straight in: a row with an identifier some contact has is refused by its unique
    // index, and is matched - with the rows whose name + company some contact has - like an upsert.
    const byName = await rowsMatchingByName(trx, options.teamId, now);
    const fresh = now.filter((row) => !byName.has(row.row));
    const inserted = await insert(fresh);
    const candidates = now.filter((row) => !inserted.has(row.uuid));
    const matches = await matchLeads(
      trx,
      options.teamId,
      candidates.map((row) => ({ ord: row.row, ...row.keys })),
    );
    const companies = facts.companies
      ? await companiesByDomain(
          trx,
          options.teamId,
          candidates.flatMap((row) => (row.domain ? [row.domain] : [])),
        )
      : new Map<string, string>();
    const claimed = new Set<string>();
    const updates: Update[] = [];
    const unmatchedByName: PreparedLead[] = [];
    for (const row of candidates) {
      const existing = matches.get(row.row);
      if (!existing) {
        // A namesake another identifier tells apart is a new contact; a refused insert without a
        // match collided with a contact deleted meanwhile.
        if (byName.has(row.row)) unmatchedByName.push(row);
        else retry(row, deferred);
      } else if (claimed.has(existing.uuid)) deferred.push(row);
      else if (existing.is_blacklisted) {
        claimed.add(existing.uuid);
        counts.blacklisted++;
      } else {
        claimed.add(existing.uuid);
        const update = changesFor(row, existing, options, companies);
        if (Object.keys(update.changes).length === 0) counts.duplicate++;
        else updates.push(update);
      }
    }
    const applied = await applyUpdates(trx, options, updates);
    counts.updated += applied.updated;
    counts.errors.push(...applied.errors);
    const late = await insert(unmatchedByName);
    for (const row of unmatchedByName) if (!late.has(row.uuid)) retry(row, deferred);
    pending = deferred.sort((a, b) => a.row - b.row);
  }
  return counts;
}
