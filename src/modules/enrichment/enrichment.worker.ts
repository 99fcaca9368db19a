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
import { linkLeadsToCompanies } from '../companies/company-links.js';
import { claimRead } from '../engine/drivers/read-pace.js';
import {
  isPassingFailure,
  isSeatFailure,
  type LinkedInCompanyPage,
  type LinkedInProfile,
  type LinkedInReader,
  type ReaderRegistry,
  type ReadOutcome,
} from '../engine/drivers/reader.js';
import { senderObject } from '../engine/event-objects.js';
import { emitContactEvents, emitEvents } from '../events/emit.js';
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

const backoffMs = (attempts: number) => 60_000 * 4 ** Math.max(0, attempts - 1);

/** Marks a sender's seat `login_issue` after a read answered it is logged out (as actions do). */
async function seatIssue(
  trx: Executor,
  teamId: number,
  sender: string,
  reason: string,
  message: string,
  now: Date,
) {
  await sql`
    update linkedin_browsers set status = 'login_issue', error_reason = ${message}, updated_at = ${now}
    where team_id = ${teamId} and sender_profile_uuid = ${sender} and status = 'running'
  `.execute(trx);
  await emitEvents(trx, teamId, [
    {
      name: 'sender_profile_issue',
      sender_profile: await senderObject(trx, teamId, sender),
      issue: { type: reason === 'no_channel' ? 'no_channel' : 'login_issue', message },
      occurredAt: now,
    },
  ]);
}

/** Records a batch's results in one transaction; returns how many entries ended done. */
async function writeResults(
  db: Database,
  teamId: number,
  results: Result[],
  claimedAt: Date,
  seatIssues: Array<{ sender: string; reason: string; message: string }>,
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
      await seatIssue(trx, teamId, issue.sender, issue.reason, issue.message, now);
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
    const seatIssues: Array<{ sender: string; reason: string; message: string }> = [];
    let waitUntil: Date | null = null;
    for (const [index, entry] of entries.entries()) {
      const record = records.get(`${entry.object}:${entry.object_uuid}`);
      if (!record || record.is_blacklisted) {
        results.push({
          entry,
          status: 'failed',
          sender: null,
          error: record ? 'The record is blacklisted; it was not read.' : 'The record no longer exists.',
        });
        continue;
      }
      // A sender whose next read slot is free now (round robin over the team's readers).
      let picked: { senderProfileUuid: string; reader: LinkedInReader } | undefined;
      const now = clock.now();
      for (let k = 0; k < senders.length && !picked; k += 1) {
        const candidate = senders[(turn + k) % senders.length]!;
        const claim = await claimRead(db, {
          teamId,
          senderProfileUuid: candidate.senderProfileUuid,
          kind: 'profile',
          pace: candidate.reader.pace,
          now,
          random: random(),
        });
        if (claim.ok) {
          picked = candidate;
          turn = (turn + k + 1) % senders.length;
        } else if (!waitUntil || claim.retryAt < waitUntil) {
          waitUntil = claim.retryAt;
        }
      }
      if (!picked) {
        // Every sender is at its pace or daily cap: the rest waits for the first free slot.
        for (const rest of entries.slice(index)) {
          results.push({
            entry: rest,
            status: 'pending',
            error: null,
            at: waitUntil ?? now,
            countAttempt: false,
          });
        }
        break;
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
        results.push({ entry, status: 'done', sender: picked.senderProfileUuid, value: outcome.value });
      } else if (isSeatFailure(outcome.reason)) {
        seatIssues.push({
          sender: picked.senderProfileUuid,
          reason: outcome.reason,
          message: outcome.message,
        });
        senders = senders.filter((s) => s !== picked);
        results.push({ entry, status: 'pending', error: outcome.message, at: now, countAttempt: false });
        if (senders.length === 0) {
          for (const rest of entries.slice(index + 1)) {
            results.push({ entry: rest, status: 'pending', error: null, at: now, countAttempt: false });
          }
          break;
        }
      } else if (isPassingFailure(outcome.reason) && entry.attempts < maxAttempts) {
        const at = new Date(now.getTime() + (outcome.retryAfterMs ?? backoffMs(entry.attempts)));
        results.push({ entry, status: 'pending', error: outcome.message, at, countAttempt: true });
      } else {
        results.push({
          entry,
          status: 'failed',
          sender: picked.senderProfileUuid,
          error: `${outcome.reason}: ${outcome.message}`,
          linkedinStatus: outcome.reason === 'not_found' ? 'no_data' : 'enrichment_failed',
        });
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
