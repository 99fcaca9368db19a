// The enrichment worker: one job per team (`enrichment.run`, its own named queue so a team's entries
// are read by one job at a time) claims due queue entries in batches (FOR UPDATE SKIP LOCKED), reads
// each profile or company page through a sender that can read (ReaderRegistry.available), taking the
// sender's read slot first (claimRead: the per-sender budget shared with data sources), then writes a
// batch's results in one transaction: the records filled set-based, the entries done or failed, one
// credit refunded per failed entry, `contact_enriched` per enriched contact. A scheduled sweep restarts
// teams whose entries are due (a sender came back, a retry time passed). See CONTEXT.md.
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Database, Executor } from '../../db/database.js';
import { enqueueJob, handleJob, type JobHandler, jobType } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { recordActivities } from '../activities/activities.repository.js';
import { claimRead } from '../channels/read-pace.js';
import {
  isPassingFailure,
  isSeatFailure,
  type LinkedInCompanyPage,
  type LinkedInProfile,
  type LinkedInReader,
  type ReaderRegistry,
  type ReadFailureReason,
  type ReadOutcome,
} from '../channels/reader.js';
import { markSeatReadIssue } from '../channels/seat-issue.js';
import { emitContactEvents } from '../events/emit.js';
import { linkLeadsToCompanies } from '../leads/company-links.js';
import { refundCredits } from './credits.js';
import {
  type CompanyFill,
  fillCompanies,
  fillLeads,
  type LeadFill,
  markReadFailures,
} from './enrichment.fill.js';
import { type ClaimedEntry, claimEntries, nextDueAt, teamsWithDueEntries } from './enrichment.repository.js';

export const runEnrichmentJob = jobType('enrichment.run', Type.Object({ teamId: Type.Integer() }), {
  maxAttempts: 10,
});
export const sweepEnrichmentJob = jobType('enrichment.sweep', Type.Object({}), {
  schedule: '* * * * *',
  maxAttempts: 1,
});

export type EnrichmentWorkerDeps = {
  db: Database;
  clock: Clock;
  readers: ReaderRegistry;
  /** Entries claimed per batch (default 500). */
  batchSize?: number;
  /** How long one job reads before it hands over to a fresh job (default 60 s). */
  budgetMs?: number;
  /** Reads of one entry that failed with a passing reason before it fails for good (default 5). */
  maxAttempts?: number;
  /** Entries read at once (default 8); each read still takes its sender's slot first (claimRead). */
  lanes?: number;
  /** Uniform [0, 1) for the read pace's spread (tests pass a fixed one). */
  random?: () => number;
};

type Result =
  | { entry: ClaimedEntry; status: 'done'; sender: string; value: LinkedInProfile | LinkedInCompanyPage }
  | {
      entry: ClaimedEntry;
      status: 'failed';
      error: string;
      sender: string | null;
      linkedinStatus?: 'no_data' | 'enrichment_failed';
    }
  | { entry: ClaimedEntry; status: 'pending'; error: string | null; at: Date; countAttempt: boolean };

type Attempt = {
  result: Result;
  /** No sender had a free read slot; the first one opens then. */
  noSlot?: Date;
  seatIssue?: { sender: string; reason: ReadFailureReason; message: string };
};

type RecordRef = {
  uuid: string;
  is_blacklisted: boolean;
  ln_member_id?: number | null;
  /** Text on contacts, a number on companies. */
  ln_id?: string | number | null;
  sn_id?: string | null;
  linkedin?: string | null;
  domain?: string | null;
  name?: string | null;
};

async function loadRecords(db: Executor, teamId: number, entries: ClaimedEntry[]) {
  const of = (object: string) => entries.filter((e) => e.object === object).map((e) => e.object_uuid);
  const leads = of('lead');
  const companies = of('company');
  const found = new Map<string, RecordRef>();
  if (leads.length > 0) {
    for (const row of await db
      .selectFrom('leads')
      .select(['uuid', 'is_blacklisted', 'ln_member_id', 'ln_id', 'sn_id', 'linkedin'])
      .where('team_id', '=', teamId)
      .where('uuid', 'in', leads)
      .execute()) {
      found.set(`lead:${row.uuid}`, {
        ...row,
        ln_member_id: row.ln_member_id === null ? null : Number(row.ln_member_id),
      });
    }
  }
  if (companies.length > 0) {
    for (const row of await db
      .selectFrom('companies')
      .select(['uuid', 'is_blacklisted', 'ln_id', 'linkedin', 'domain', 'name'])
      .where('team_id', '=', teamId)
      .where('uuid', 'in', companies)
      .execute()) {
      found.set(`company:${row.uuid}`, { ...row, ln_id: row.ln_id === null ? null : Number(row.ln_id) });
    }
  }
  return found;
}

/**
 * claimRead in its own transaction committed without waiting for the WAL flush (synchronous_commit
 * off): one claim per read would otherwise wait for a disk flush per read. A crash can forget the last
 * claims (a few ms of them), which only lets the next read start a little early.
 */
async function claimSlot(db: Database, input: Parameters<typeof claimRead>[1]) {
  return db.transaction().execute(async (trx) => {
    await sql`set local synchronous_commit = off`.execute(trx);
    return claimRead(trx, input);
  });
}

const backoffMs = (attempts: number) => 60_000 * 4 ** Math.max(0, attempts - 1);

/** Records a batch's results in one transaction; returns how many entries ended done. */
async function writeResults(
  db: Database,
  teamId: number,
  results: Result[],
  claimedAt: Date,
  seatIssues: Array<{ sender: string; reason: ReadFailureReason; message: string }>,
  now: Date,
): Promise<number> {
  if (results.length === 0 && seatIssues.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const rows = results.map((r) => ({
      uuid: r.entry.uuid,
      status: r.status,
      error: r.status === 'done' ? null : r.error,
      sender: r.status === 'pending' ? null : r.sender,
      next_at: r.status === 'pending' ? r.at.toISOString() : null,
      uncount: r.status === 'pending' && !r.countAttempt,
    }));
    // Only entries this worker still holds (a worker presumed dead may have lost them to another).
    const updated = await sql<{ uuid: string; status: string }>`
      update enrichment_queue q set
        status = v.status,
        error = v.error,
        sender_profile_uuid = coalesce(v.sender, q.sender_profile_uuid),
        next_attempt_at = coalesce(v.next_at, q.next_attempt_at),
        attempts = case when v.uncount then q.attempts - 1 else q.attempts end,
        claimed_at = null,
        finished_at = case when v.status in ('done', 'failed') then ${now}::timestamptz end
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as v(uuid uuid, status text, error text, sender uuid, next_at timestamptz, uncount boolean)
      where q.team_id = ${teamId} and q.uuid = v.uuid and q.status = 'processing' and q.claimed_at = ${claimedAt}
      returning q.uuid, q.status
    `.execute(trx);
    const kept = new Map(updated.rows.map((row) => [row.uuid, row.status]));
    const mine = results.filter((r) => kept.get(r.entry.uuid) === r.status);
    const done = mine.flatMap((r) => (r.status === 'done' ? [r] : []));
    const leadFills: LeadFill[] = done
      .filter((r) => r.entry.object === 'lead')
      .map((r) => ({
        uuid: r.entry.object_uuid,
        refresh: r.entry.refresh,
        profile: r.value as LinkedInProfile,
      }));
    const companyFills: CompanyFill[] = done
      .filter((r) => r.entry.object === 'company')
      .map((r) => ({
        uuid: r.entry.object_uuid,
        refresh: r.entry.refresh,
        page: r.value as LinkedInCompanyPage,
      }));
    await fillLeads(trx, teamId, leadFills);
    await fillCompanies(trx, teamId, companyFills);
    // Companies have no enrichment event; their timeline records it like a contact's.
    await recordActivities(
      trx,
      teamId,
      companyFills.map((fill) => ({
        type: 'contact_enriched',
        objectType: 'company',
        objectUuid: fill.uuid,
      })),
    );
    const failed = mine.flatMap((r) => (r.status === 'failed' ? [r] : []));
    for (const table of ['leads', 'companies'] as const) {
      await markReadFailures(
        trx,
        teamId,
        table,
        failed
          .filter((r) => (r.entry.object === 'lead') === (table === 'leads') && r.linkedinStatus)
          .map((r) => ({ uuid: r.entry.object_uuid, status: r.linkedinStatus! })),
      );
    }
    await refundCredits(
      trx,
      teamId,
      failed.map((r) => r.entry.uuid),
    );
    const enrichedLeads = leadFills.map((f) => f.uuid);
    if (enrichedLeads.length > 0) {
      await linkLeadsToCompanies(trx, teamId, { leadUuids: enrichedLeads });
      await emitContactEvents(trx, teamId, 'contact_enriched', enrichedLeads);
    }
    for (const issue of seatIssues)
      await markSeatReadIssue(trx, {
        teamId,
        senderProfileUuid: issue.sender,
        reason: issue.reason,
        message: issue.message,
        at: now,
      });
    return done.length;
  });
}

/**
 * Reads the team's due entries for up to `budgetMs`. Answers what is left: `again` (due work remains:
 * run again now), `at` (the next entry is due then, or a sender's read slot opens then), or nothing.
 */
export async function runEnrichment(
  deps: EnrichmentWorkerDeps,
  teamId: number,
): Promise<{ done: number; again: boolean; at: Date | null }> {
  const { db, clock } = deps;
  const batchSize = deps.batchSize ?? 500;
  const budgetMs = deps.budgetMs ?? 60_000;
  const maxAttempts = deps.maxAttempts ?? 5;
  const random = deps.random ?? Math.random;
  const lanes = Math.max(1, deps.lanes ?? 8);
  const started = Date.now();
  let done = 0;
  let senders = await deps.readers.available(teamId);
  // Nobody can read: entries wait (the sweep looks again every minute).
  if (senders.length === 0) return { done, again: false, at: null };
  let turn = 0;
  for (;;) {
    if (Date.now() - started > budgetMs) return { done, again: true, at: null };
    const claimedAt = clock.now();
    const entries = await claimEntries(db, teamId, batchSize, claimedAt);
    if (entries.length === 0) return { done, again: false, at: await nextDueAt(db, teamId) };
    const records = await loadRecords(db, teamId, entries);
    const results: Result[] = [];
    const seatIssues: Array<{ sender: string; reason: ReadFailureReason; message: string }> = [];
    let waitUntil: Date | null = null;
    // One entry per lane at a time; claimRead arbitrates, so lanes never read faster than a sender's
    // pace allows (with a real account's interval all lanes but one find its slot taken).
    const attempt = async (entry: ClaimedEntry, lane: number, pool: typeof senders): Promise<Attempt> => {
      const record = records.get(`${entry.object}:${entry.object_uuid}`);
      if (!record || record.is_blacklisted) {
        const error = record ? 'The record is blacklisted; it was not read.' : 'The record no longer exists.';
        return { result: { entry, status: 'failed', sender: null, error } };
      }
      // A sender whose next read slot is free now (round robin over the team's readers).
      const now = clock.now();
      let picked: { senderProfileUuid: string; reader: LinkedInReader } | undefined;
      let blockedUntil: Date | undefined;
      for (let k = 0; k < pool.length && !picked; k += 1) {
        const candidate = pool[(turn + lane + k) % pool.length]!;
        const claim = await claimSlot(db, {
          teamId,
          senderProfileUuid: candidate.senderProfileUuid,
          kind: 'profile',
          pace: candidate.reader.pace,
          now,
          random: random(),
        });
        if (claim.ok) picked = candidate;
        else if (!blockedUntil || claim.retryAt < blockedUntil) blockedUntil = claim.retryAt;
      }
      if (!picked) {
        return {
          result: { entry, status: 'pending', error: null, at: blockedUntil ?? now, countAttempt: false },
          noSlot: blockedUntil ?? now,
        };
      }
      const context = { teamId, senderProfileUuid: picked.senderProfileUuid, at: now };
      const outcome: ReadOutcome<LinkedInProfile | LinkedInCompanyPage> =
        entry.object === 'lead'
          ? await picked.reader.getProfile(context, {
              ln_member_id: record.ln_member_id ?? null,
              ln_id: record.ln_id === undefined || record.ln_id === null ? null : String(record.ln_id),
              sn_id: record.sn_id ?? null,
              linkedin: record.linkedin ?? null,
            })
          : await picked.reader.getCompany(context, {
              ln_id: record.ln_id === undefined || record.ln_id === null ? null : Number(record.ln_id),
              linkedin: record.linkedin ?? null,
              domain: record.domain ?? null,
              name: record.name ?? null,
            });
      if (outcome.ok) {
        return { result: { entry, status: 'done', sender: picked.senderProfileUuid, value: outcome.value } };
      }
      if (isSeatFailure(outcome.reason)) {
        return {
          result: { entry, status: 'pending', error: outcome.message, at: now, countAttempt: false },
          seatIssue: { sender: picked.senderProfileUuid, reason: outcome.reason, message: outcome.message },
        };
      }
      if (isPassingFailure(outcome.reason) && entry.attempts < maxAttempts) {
        const at = new Date(now.getTime() + (outcome.retryAfterMs ?? backoffMs(entry.attempts)));
        return { result: { entry, status: 'pending', error: outcome.message, at, countAttempt: true } };
      }
      return {
        result: {
          entry,
          status: 'failed',
          sender: picked.senderProfileUuid,
          error: `${outcome.reason}: ${outcome.message}`,
          linkedinStatus: outcome.reason === 'not_found' ? 'no_data' : 'enrichment_failed',
        },
      };
    };
    for (let start = 0; start < entries.length; start += lanes) {
      const group = entries.slice(start, start + lanes);
      const pool = senders;
      const attempts = await Promise.all(group.map((entry, lane) => attempt(entry, lane, pool)));
      turn = (turn + group.length) % Math.max(1, pool.length);
      let stop = false;
      for (const tried of attempts) {
        results.push(tried.result);
        if (tried.noSlot) {
          stop = true;
          if (!waitUntil || tried.noSlot < waitUntil) waitUntil = tried.noSlot;
        }
        const issue = tried.seatIssue;
        if (issue && !seatIssues.some((known) => known.sender === issue.sender)) {
          seatIssues.push(issue);
          senders = senders.filter((s) => s.senderProfileUuid !== issue.sender);
        }
      }
      if (stop || senders.length === 0) {
        // Every sender is at its pace or daily cap (or none can read): the rest waits.
        const at = waitUntil ?? clock.now();
        for (const rest of entries.slice(start + lanes)) {
          results.push({ entry: rest, status: 'pending', error: null, at, countAttempt: false });
        }
        break;
      }
    }
    done += await writeResults(db, teamId, results, claimedAt, seatIssues, clock.now());
    if (senders.length === 0) return { done, again: false, at: null };
    if (waitUntil && results.some((r) => r.status === 'pending' && !r.countAttempt)) {
      return { done, again: false, at: waitUntil };
    }
  }
}

/** Starts the team's enrichment job at `runAt` (now when absent), in `db`'s transaction. */
export async function scheduleEnrichment(db: Executor, teamId: number, runAt?: Date): Promise<void> {
  await enqueueJob(
    db,
    runEnrichmentJob,
    { teamId },
    { jobKey: `enrichment:${teamId}`, queueName: `enrichment:${teamId}`, ...(runAt ? { runAt } : {}) },
  );
}

export function enrichmentJobHandlers(deps: EnrichmentWorkerDeps): JobHandler[] {
  return [
    handleJob(runEnrichmentJob, async ({ teamId }) => {
      const left = await runEnrichment(deps, teamId);
      if (left.again) await scheduleEnrichment(deps.db, teamId);
      else if (left.at) await scheduleEnrichment(deps.db, teamId, left.at);
    }),
    handleJob(sweepEnrichmentJob, async () => {
      for (const teamId of await teamsWithDueEntries(deps.db, deps.clock.now())) {
        await scheduleEnrichment(deps.db, teamId);
      }
    }),
  ] as JobHandler[];
}
