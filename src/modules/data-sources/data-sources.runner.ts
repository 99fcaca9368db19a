// Running a data source: one job run reads a few pages of the search through the sender's seat (each
// read claims the sender's search budget first: read-pace.ts, shared with enrichment), saves each
// page's people or companies into the list through the CSV import's chunk writers (the same
// normalisation, deduplication, blacklist and tags), and moves the cursor and counters in the same
// transaction. Then its job (data-sources.jobs.ts) schedules it again: at once when the budget allows,
// else when claimRead says.
// Pausing sets on_hold; the run sees it when it locks the row to save a page and stops without saving.
import type { Database, Executor } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { claimRead } from '../channels/read-pace.js';
import {
  type CompanyResult,
  isPassingFailure,
  isSeatFailure,
  type LinkedInReader,
  type PersonResult,
  type ReaderRegistry,
  type ReadFailureReason,
  SEARCH_TYPES,
  type SearchPage,
  type SearchType,
} from '../channels/reader.js';
import { markSeatReadIssue } from '../channels/seat-issue.js';
import { prepareCompanyRows, writeCompanyChunk } from '../files/import-companies.js';
import { prepareLeadRows, writeLeadChunk } from '../files/import-leads.js';
import { COMPANY_TARGETS, LEAD_TARGETS, type MappedColumn } from '../files/import-mapping.js';
import type { ChunkCounts, SourceRow } from '../files/import-types.js';
import { selectInitialStageUuid } from '../pipeline-stages/pipeline-stages.defaults.js';
import { type DataSourceRow, noteProblem, recordPage, selectDataSource } from './data-sources.repository.js';
import type { DataSourceError } from './data-sources.tables.js';
import { type DataSourceStatus, isSearchType } from './data-sources.types.js';

/** Result fields a search shows, as the import's mapped columns (one cell per field, in this order). */
function columnsOf(fields: readonly string[], targets: typeof LEAD_TARGETS): MappedColumn[] {
  return fields.map((field, index) => {
    const target = targets[field];
    if (!target) throw new Error(`No import target for search result field ${field}`);
    return { index, source: field, target: field, field: target.field, kind: target.kind };
  });
}

const PERSON_FIELDS = [
  'ln_member_id',
  'ln_id',
  'sn_id',
  'linkedin',
  'first_name',
  'last_name',
  'name',
  'headline',
  'position',
  'company_name',
  'company_ln_id',
  'raw_address',
  'avatar_url',
] as const satisfies ReadonlyArray<keyof PersonResult>;
const COMPANY_FIELDS = [
  'ln_id',
  'linkedin',
  'name',
  'industry',
  'employees_range',
  'hq_raw_address',
  'logo_url',
] as const satisfies ReadonlyArray<keyof CompanyResult>;
const PERSON_COLUMNS = columnsOf(PERSON_FIELDS, LEAD_TARGETS);
const COMPANY_COLUMNS = columnsOf(COMPANY_FIELDS, COMPANY_TARGETS);

function cells<T>(result: T, fields: readonly (keyof T)[]): string[] {
  return fields.map((field) => {
    const value = result[field];
    return value === null || value === undefined ? '' : String(value);
  });
}

export type DataSourceRunnerDeps = {
  db: Database;
  clock: Clock;
  readers: ReaderRegistry;
  /** Search pages one job run reads before it hands the worker back. */
  pagesPerRun: number;
  /** How long a source waits for a sender that cannot read (no seat, logged out...), ms. */
  waitMs: number;
  /** Uniform [0, 1) for the read pace's spread (tests pass a fixed one). */
  random?: () => number;
};

type Reading = { reader: LinkedInReader; sender: string };

async function readerFor(
  readers: ReaderRegistry,
  source: DataSourceRow,
): Promise<Reading | { unavailable: string }> {
  if (source.sender_profile_uuid) {
    const found = await readers.resolve(source.team_id, source.sender_profile_uuid);
    return 'unavailable' in found ? found : { reader: found, sender: source.sender_profile_uuid };
  }
  const [first] = await readers.available(source.team_id);
  return first
    ? { reader: first.reader, sender: first.senderProfileUuid }
    : { unavailable: 'no_reading_sender' };
}

const UNAVAILABLE: Record<string, string> = {
  no_linkedin_seat: 'The sender has no LinkedIn seat; the source waits until it has one.',
  sender_disabled: 'The sender is disabled; the source waits until it is enabled.',
  seat_login_issue: 'The sender\u2019s LinkedIn seat is not running (login issue); the source waits.',
  seat_in_live_view: 'Someone is using the seat\u2019s live view; the source waits.',
  no_reader: 'The seat\u2019s driver cannot read LinkedIn searches.',
  no_reading_sender:
    'No sender of the team can read LinkedIn now (none enabled with a running seat); the source waits.',
};

type PageResult = { status: DataSourceStatus } | 'changed';

/**
 * Saves the results of consecutive `pages` (the first one is the cursor's page) from the cursor on,
 * within the contacts limit, in one transaction with the counters, the new cursor and the status.
 */
async function savePages(
  trx: Executor,
  source: DataSourceRow,
  pages: SearchPage[],
  stageUuid: string,
  at: Date,
): Promise<PageResult> {
  const current = await selectDataSource(trx, source.team_id, source.uuid, { forUpdate: true });
  if (
    current?.status !== 'in_progress' ||
    current.next_page !== source.next_page ||
    current.next_index !== source.next_index ||
    current.type !== source.type ||
    (current.payload.url ?? null) !== (source.payload.url ?? null) ||
    current.list_uuid !== source.list_uuid
  ) {
    return 'changed';
  }
  const people = pages[0]!.kind === 'people';
  // Every result from the cursor on, with the page and index it sits at.
  const rows: Array<SourceRow & { page: number; index: number }> = [];
  for (const value of pages) {
    const results: Array<PersonResult | CompanyResult> =
      value.kind === 'people' ? value.people : value.companies;
    const base = (value.page - 1) * value.pageSize;
    results.forEach((result, index) => {
      if (value.page === current.next_page && index < current.next_index) return;
      rows.push({
        row: base + index + 1,
        page: value.page,
        index,
        cells: people
          ? cells(result as PersonResult, PERSON_FIELDS)
          : cells(result as CompanyResult, COMPANY_FIELDS),
      });
    });
  }
  const limit = current.payload.contacts_limit ?? null;
  const total = { created: 0, duplicate: 0, blacklisted: 0, errors: 0 };
  const errors: DataSourceError[] = [];
  const iso = at.toISOString();
  let taken = 0;
  let limitReached = limit !== null && current.saved_records >= limit;
  while (taken < rows.length && !limitReached) {
    // Never more rows at once than records may still be saved, so the limit is never passed.
    const room = limit === null ? rows.length : limit - current.saved_records - total.created;
    const batch = rows.slice(taken, taken + room);
    const counts = await writeRows(trx, current, batch, people, stageUuid);
    total.created += counts.created;
    total.duplicate += counts.duplicate + counts.updated;
    total.blacklisted += counts.blacklisted;
    total.errors += counts.errors.length;
    const pageOf = new Map(batch.map((row) => [row.row, row.page]));
    for (const error of counts.errors) {
      errors.push({
        at: iso,
        reason: 'row',
        message: error.reason,
        page: pageOf.get(error.row) ?? null,
        row: error.row,
      });
    }
    taken += batch.length;
    limitReached = limit !== null && current.saved_records + total.created >= limit;
  }
  const last = pages.at(-1)!;
  const allTaken = taken >= rows.length;
  const stop = rows[taken];
  const status: DataSourceStatus = limitReached
    ? 'contacts_limit_achieved'
    : allTaken && !last.hasMore
      ? 'completed'
      : 'in_progress';
  await recordPage(trx, source.team_id, source.uuid, {
    counts: total,
    read: taken,
    pages: pages.length,
    nextPage: stop ? stop.page : last.page + 1,
    nextIndex: stop ? stop.index : 0,
    total: last.total,
    status,
    errors,
    at,
  });
  return { status };
}

async function writeRows(
  trx: Executor,
  source: DataSourceRow,
  rows: SourceRow[],
  people: boolean,
  stageUuid: string,
): Promise<ChunkCounts> {
  const common = {
    teamId: source.team_id,
    userId: source.user_id,
    updateIfExists: false,
    tagUuids: source.tags,
    dataSourceUuid: source.uuid,
  };
  if (people) {
    const { prepared, errors } = prepareLeadRows(rows, PERSON_COLUMNS);
    const counts = await writeLeadChunk(
      trx,
      { ...common, columns: PERSON_COLUMNS, listUuid: source.list_uuid, stageUuid, moveToList: false },
      prepared,
    );
    return { ...counts, errors: [...errors, ...counts.errors] };
  }
  const { prepared, errors } = prepareCompanyRows(rows, COMPANY_COLUMNS);
  const counts = await writeCompanyChunk(
    trx,
    { ...common, columns: COMPANY_COLUMNS, listUuids: [source.list_uuid], initialStageUuid: stageUuid },
    prepared,
  );
  return { ...counts, errors: [...errors, ...counts.errors] };
}

/**
 * One job run of a source: up to `pagesPerRun` pages. Answers when the next run should start (null:
 * the source stopped - done, failed, paused or gone).
 */
export async function runDataSource(
  deps: DataSourceRunnerDeps,
  teamId: number,
  uuid: string,
): Promise<Date | null> {
  const { db, clock } = deps;
  const random = deps.random ?? Math.random;
  const source = await selectDataSource(db, teamId, uuid);
  if (source?.status !== 'in_progress' || !isSearchType(source.type)) return null;
  const later = (ms: number) => new Date(clock.now().getTime() + ms);
  const problem = (reason: string, message: string, options: { fail?: boolean; page?: number } = {}) =>
    noteProblem(db, teamId, uuid, {
      ...(options.fail ? { status: 'failed' as const } : {}),
      onlyIfNew: !options.fail,
      error: { at: clock.now().toISOString(), reason, message, page: options.page ?? null },
    });

  const reading = await readerFor(deps.readers, source);
  if ('unavailable' in reading) {
    await problem(reading.unavailable, UNAVAILABLE[reading.unavailable] ?? reading.unavailable);
    return later(deps.waitMs);
  }
  const { reader, sender } = reading;
  const stageUuid = await selectInitialStageUuid(
    db,
    teamId,
    SEARCH_TYPES[source.type] === 'companies' ? 'company' : 'lead',
  );

  const search = { type: source.type as SearchType, url: source.payload.url ?? null };
  const remaining = () =>
    source.payload.contacts_limit
      ? source.payload.contacts_limit - source.saved_records
      : Number.POSITIVE_INFINITY;
  // Read up to pagesPerRun pages (each a claim on the sender's read budget), then save them together.
  const pages: SearchPage[] = [];
  let next: Date | null = null;
  let failure: { reason: ReadFailureReason; message: string; retryAfterMs?: number; page: number } | null =
    null;
  let read = 0;
  while (pages.length < deps.pagesPerRun) {
    const now = clock.now();
    const claim = await claimRead(db, {
      teamId,
      senderProfileUuid: sender,
      kind: 'search',
      pace: reader.pace,
      now,
      random: random(),
    });
    if (!claim.ok) {
      next = claim.retryAt;
      break;
    }
    const page = source.next_page + pages.length;
    const outcome = await reader.searchPage({ teamId, senderProfileUuid: sender, at: now }, search, page);
    if (!outcome.ok) {
      failure = { ...outcome, page };
      break;
    }
    pages.push(outcome.value);
    read += outcome.value.kind === 'people' ? outcome.value.people.length : outcome.value.companies.length;
    if (!outcome.value.hasMore || read >= remaining()) break;
  }

  if (pages.length > 0) {
    const current = source;
    const saved = await db
      .transaction()
      .execute((trx) => savePages(trx, current, pages, stageUuid, clock.now()));
    // Paused, edited or deleted meanwhile: the next run looks at it again (and stops unless in progress).
    if (saved === 'changed') return clock.now();
    if (saved.status !== 'in_progress') return null;
  }
  if (failure) {
    if (isPassingFailure(failure.reason)) {
      await problem(failure.reason, failure.message, { page: failure.page });
      return later(failure.retryAfterMs ?? deps.waitMs);
    }
    if (isSeatFailure(failure.reason)) {
      await problem(failure.reason, failure.message, { page: failure.page });
      const issue = { teamId, senderProfileUuid: sender, reason: failure.reason, message: failure.message };
      await db.transaction().execute((trx) => markSeatReadIssue(trx, { ...issue, at: clock.now() }));
      return later(deps.waitMs);
    }
    await problem(failure.reason, failure.message, { fail: true, page: failure.page });
    return null;
  }
  return next ?? clock.now();
}
