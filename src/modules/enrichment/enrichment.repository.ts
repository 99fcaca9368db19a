// SQL of the enrichment queue: queueing a selection (one INSERT ... SELECT), the list and the month's
// count, and the workers' claim (FOR UPDATE SKIP LOCKED on the partial index of open entries).

import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { crossTeam } from '../../db/citus.js';
import type { Executor } from '../../db/database.js';
import type { PageRequest, SortSpec } from '../../lib/pagination.js';
import { orderByClause } from '../../lib/pagination.js';
import type { EnrichmentObject } from './enrichment.tables.js';

export const queueSort: SortSpec = {
  fields: { created_at: 'created_at', finished_at: 'finished_at' },
  default: 'created_at',
  tiebreaker: 'uuid',
};

/** What a record needs to be readable: a LinkedIn reference (contacts) or any company hint. */
function readable(object: EnrichmentObject, alias: string): RawBuilder<SqlBool> {
  const any = (columns: string[]) =>
    sql<SqlBool>`(${sql.join(
      columns.map((column) => sql`${sql.ref(`${alias}.${column}`)} is not null`),
      sql` or `,
    )})`;
  return object === 'lead'
    ? any(['linkedin', 'ln_id', 'sn_id', 'ln_member_id'])
    : any(['ln_id', 'linkedin', 'domain', 'name']);
}

const TABLE: Record<EnrichmentObject, 'leads' | 'companies'> = { lead: 'leads', company: 'companies' };

/**
 * Queues the team's records of `object` matching `where` (a condition on alias `alias`, blacklisted
 * records already excluded) that can be read and are not queued already. Returns how many were
 * queued and how many selected records were skipped.
 */
export async function insertQueueEntries(
  db: Executor,
  teamId: number,
  object: EnrichmentObject,
  alias: string,
  where: RawBuilder<SqlBool>,
  options: { refresh: boolean; source: 'api' | 'flow'; requestUuid: string; now: Date },
): Promise<{ queued: number; selected: number }> {
  const result = await sql<{ queued: string; selected: string }>`
    with candidates as (
      select ${sql.ref(`${alias}.uuid`)} as uuid, ${readable(object, alias)} as readable
      from ${sql.table(TABLE[object])} as ${sql.table(alias)}
      where ${sql.ref(`${alias}.team_id`)} = ${teamId} and ${where}
    ), inserted as (
      insert into enrichment_queue (team_id, uuid, object, object_uuid, refresh, source, request_uuid,
        next_attempt_at)
      select ${teamId}, leadflow_uuid_v7(), ${object}, c.uuid, ${options.refresh}, ${options.source},
        ${options.requestUuid}, ${options.now}
      from candidates c where c.readable
      on conflict (team_id, object, object_uuid) where status in ('pending', 'processing') do nothing
      returning 1
    )
    select (select count(*) from inserted) as queued, (select count(*) from candidates) as selected
  `.execute(db);
  const row = result.rows[0]!;
  return { queued: Number(row.queued), selected: Number(row.selected) };
}

export async function selectQueuePage(
  db: Executor,
  teamId: number,
  where: RawBuilder<SqlBool> | undefined,
  page: PageRequest,
) {
  let base = db.selectFrom('enrichment_queue').where('team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .select(['uuid', 'object', 'object_uuid', 'status', 'error', 'created_at', 'finished_at'])
      .orderBy(orderByClause(page, queueSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Entries queued since `since` (the start of the calendar month, UTC). */
export async function countQueuedSince(db: Executor, teamId: number, since: Date): Promise<number> {
  const row = await db
    .selectFrom('enrichment_queue')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type ClaimedEntry = {
  uuid: string;
  object: EnrichmentObject;
  object_uuid: string;
  refresh: boolean;
  attempts: number;
};

/** A claimed entry whose worker has not finished it after this long is taken again. */
export const STALE_CLAIM_MS = 10 * 60_000;

/**
 * Takes up to `limit` due entries of the team (pending, or processing by a worker presumed dead),
 * marking them processing. SKIP LOCKED: concurrent workers take disjoint entries.
 */
export async function claimEntries(
  db: Executor,
  teamId: number,
  limit: number,
  now: Date,
): Promise<ClaimedEntry[]> {
  const stale = new Date(now.getTime() - STALE_CLAIM_MS);
  const result = await sql<ClaimedEntry>`
    with picked as (
      select q.uuid from enrichment_queue q
      where q.team_id = ${teamId} and q.status in ('pending', 'processing')
        and ((q.status = 'pending' and q.next_attempt_at <= ${now})
          or (q.status = 'processing' and q.claimed_at < ${stale}))
      order by q.next_attempt_at, q.uuid
      limit ${limit}
      for update skip locked
    )
    update enrichment_queue q set status = 'processing', claimed_at = ${now}, attempts = q.attempts + 1
    from picked where q.team_id = ${teamId} and q.uuid = picked.uuid
    returning q.uuid, q.object, q.object_uuid, q.refresh, q.attempts
  `.execute(db);
  return result.rows;
}

/**
 * When the team's next entry is due (null: nothing waits): a pending entry at its next attempt, one
 * being processed when its claim goes stale (its worker presumed dead).
 */
export async function nextDueAt(db: Executor, teamId: number): Promise<Date | null> {
  const result = await sql<{ at: Date | null }>`
    select min(case when status = 'pending' then next_attempt_at
      else claimed_at + ${`${STALE_CLAIM_MS} milliseconds`}::interval end) as at
    from enrichment_queue
    where team_id = ${teamId} and status in ('pending', 'processing')
  `.execute(db);
  return result.rows[0]?.at ?? null;
}

/** Teams with entries due now (the sweeper restarts their workers). */
export async function teamsWithDueEntries(db: Executor, now: Date): Promise<number[]> {
  const stale = new Date(now.getTime() - STALE_CLAIM_MS);
  const result = await sql<{ team_id: string }>`
    ${crossTeam('enrichment-sweep')} select distinct team_id from enrichment_queue
    where status in ('pending', 'processing')
      and ((status = 'pending' and next_attempt_at <= ${now}) or (status = 'processing' and claimed_at < ${stale}))
  `.execute(db);
  return result.rows.map((row) => Number(row.team_id));
}
