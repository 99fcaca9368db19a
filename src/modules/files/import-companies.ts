// Writing one chunk of CSV rows as companies with the rules of POST /leads/api/companies: rows are
// normalised by normalizeCompanyInput, rows of the chunk that are the same company are merged by
// collapseBatch, and the merged companies go through upsertCompanies (one statement: match by ln_id,
// LinkedIn slug, domain, then name; update the matched, insert the rest). Blacklisted rows and rows
// matching a blacklisted company are skipped; with update_if_exists false a matched company is left
// as it is (counted as a duplicate).
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { AppError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { companyBlacklistMatch, refreshCompanyBlacklistFlags } from '../blacklists/blacklist-match.js';
import {
  type CompanyInputBody,
  collapseBatch,
  type NormalizedCompany,
  normalizeCompanyInput,
} from '../companies/companies.input.js';
import { bestCompanyMatch, type UpsertRow, upsertCompanies } from '../companies/companies.upsert.js';
import { linkLeadsToCompanies } from '../leads/company-links.js';
import { upsertTagsByName } from '../tags/tags.repository.js';
import type { MappedColumn } from './import-mapping.js';
import { type ChunkCounts, emptyCounts, type SourceRow } from './import-types.js';
import { RowError, readRow, rowErrorFrom } from './import-values.js';

export type CompanyImportOptions = {
  teamId: number;
  userId: number | null;
  listUuids: string[];
  initialStageUuid: string;
  updateIfExists: boolean;
  tagUuids: string[];
  dataSourceUuid: string | null;
  columns: MappedColumn[];
};

type PreparedCompany = { row: number; company: NormalizedCompany; tagNames: string[] };

export function prepareCompanyRows(rows: SourceRow[], columns: MappedColumn[]) {
  const prepared: PreparedCompany[] = [];
  const errors: Array<{ row: number; reason: string }> = [];
  for (const { row, cells } of rows) {
    try {
      const values = readRow(cells, columns);
      const company = normalizeCompanyInput(values.input as CompanyInputBody, 'row');
      company.custom_fields = values.customFields;
      prepared.push({ row, company, tagNames: values.tagNames });
    } catch (error) {
      if (error instanceof RowError) errors.push({ row, reason: error.reason });
      else if (error instanceof AppError) errors.push({ row, reason: rowErrorFrom(error, columns).reason });
      else throw error;
    }
  }
  return { prepared, errors };
}

async function blacklistedRows(trx: Executor, teamId: number, rows: PreparedCompany[]) {
  if (rows.length === 0) return new Set<number>();
  const payload = JSON.stringify(
    rows.map(({ row, company }) => ({
      ord: row,
      ln_id: company.ln_id,
      linkedin: company.linkedin,
      domain: company.domain,
      name: company.values.name ?? null,
    })),
  );
  // A join, not exists (...): Citus refuses a correlated subquery beside a set-returning function.
  const result = await sql<{ ord: number }>`
    select distinct k.ord
    from jsonb_to_recordset(${payload}::jsonb) as k(ord integer, ln_id bigint, linkedin text, domain text, name text)
    join companies_blacklist b on b.team_id = ${teamId} and ${companyBlacklistMatch('k')}
  `.execute(trx);
  return new Set(result.rows.map((r) => r.ord));
}

/** The stored company each merged company matches, by the one company dedup rule (bestCompanyMatch). */
async function matchCompanies(trx: Executor, teamId: number, companies: NormalizedCompany[]) {
  const payload = JSON.stringify(
    companies.map((company, ord) => ({
      ord,
      ln_id: company.ln_id,
      linkedin: company.linkedin,
      domain: company.domain,
      name_key: company.name_key,
    })),
  );
  const result = await sql<{ ord: number; uuid: string; is_blacklisted: boolean }>`
    select i.ord, m.uuid, m.is_blacklisted
    from jsonb_to_recordset(${payload}::jsonb) as i(ord integer, ln_id bigint, linkedin text, domain text, name_key text)
    join lateral (${bestCompanyMatch(teamId)}) m on true
  `.execute(trx);
  return new Map(result.rows.map((row) => [row.ord, row]));
}

/** Writes the prepared rows of one chunk inside `trx` and counts what happened to each. */
export async function writeCompanyChunk(
  trx: Executor,
  options: CompanyImportOptions,
  prepared: PreparedCompany[],
): Promise<ChunkCounts> {
  const counts = emptyCounts();
  const names = prepared.flatMap((row) => row.tagNames);
  const byName = names.length > 0 ? await upsertTagsByName(trx, options.teamId, names) : new Map();
  for (const { company, tagNames } of prepared) {
    const named = tagNames.map((name) => byName.get(name.toLowerCase()) as string);
    company.tags = [...new Set([...options.tagUuids, ...named])];
  }
  const blacklisted = await blacklistedRows(trx, options.teamId, prepared);
  counts.blacklisted += blacklisted.size;
  const rows = prepared.filter((row) => !blacklisted.has(row.row));
  if (rows.length === 0) return counts;

  const { companies, groupOf } = collapseBatch(rows.map((row) => row.company));
  const matches = await matchCompanies(trx, options.teamId, companies);
  const upserts: UpsertRow[] = [];
  const outcome = new Map<number, 'blacklisted' | 'duplicate' | 'write'>();
  companies.forEach((company, ord) => {
    const match = matches.get(ord);
    if (match?.is_blacklisted) outcome.set(ord, 'blacklisted');
    else if (match && !options.updateIfExists) outcome.set(ord, 'duplicate');
    else {
      outcome.set(ord, 'write');
      upserts.push({ ...company, uuid: newId(), ord });
    }
  });

  const resolved = new Map<string, string>();
  let pending = upserts;
  const context = {
    teamId: options.teamId,
    userId: options.userId,
    initialStageUuid: options.initialStageUuid,
    listUuids: options.listUuids,
    dataSourceUuid: options.dataSourceUuid,
  };
  // A merged company whose match a concurrent writer changed comes back unresolved; run it again.
  for (let round = 0; round < 3 && pending.length > 0; round++) {
    for (const [input, company] of await upsertCompanies(trx, context, pending)) resolved.set(input, company);
    pending = pending.filter((row) => !resolved.has(row.uuid));
  }
  const upsertOf = new Map(upserts.map((row) => [row.ord, row]));
  const seenGroups = new Set<number>();
  rows.forEach((row, index) => {
    const group = groupOf[index]!;
    const first = !seenGroups.has(group);
    seenGroups.add(group);
    const kind = outcome.get(group);
    if (kind === 'blacklisted') counts.blacklisted++;
    else if (kind === 'duplicate' || !first) counts.duplicate++;
    else {
      const input = upsertOf.get(group)!;
      const company = resolved.get(input.uuid);
      if (!company) {
        counts.errors.push({
          row: row.row,
          reason: 'it collided with a company written at the same time; import it again.',
        });
      } else if (company === input.uuid) counts.created++;
      else counts.updated++;
    }
  });
  const written = [...new Set(resolved.values())];
  await refreshCompanyBlacklistFlags(trx, options.teamId, { uuids: written });
  await linkLeadsToCompanies(trx, options.teamId, { companyUuids: written });
  return counts;
}
