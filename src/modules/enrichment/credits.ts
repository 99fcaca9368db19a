// The team's enrichment credits: `teams.credits_advanced_enrichment` is the balance and `credit_ledger`
// holds one row per change (grant, reservation, refund) with the balance after it, written in the same
// transaction as the balance. The balance never goes below 0: a reservation is one conditional UPDATE
// (`... where credits >= needed`), which PostgreSQL re-checks on the latest row version when concurrent
// transactions race for the team's row, and a check constraint backs it. See CONTEXT.md, "Credits".
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';

/** 402 payment_required, saying what the request needs and what the team has. */
export function paymentRequired(needed: number, available: number, what: string): AppError {
  return new AppError(
    'payment_required',
    `Enriching ${needed} ${what} needs ${needed} credit${needed === 1 ? '' : 's'}; the team has ${available}. ` +
      'Add credits (leadflow admin add-credits) or select fewer records.',
    { needed, available },
  );
}

export async function creditBalance(db: Executor, teamId: number): Promise<number> {
  const row = await db
    .selectFrom('teams')
    .select('credits_advanced_enrichment')
    .where('id', '=', teamId)
    .executeTakeFirst();
  return Number(row?.credits_advanced_enrichment ?? 0);
}

/**
 * Adds (or, negative, removes) credits by hand (`leadflow admin add-credits`): a `grant` row. Removing
 * more than the balance is refused (422) rather than leaving a negative balance.
 */
export async function grantCredits(db: Executor, teamId: number, amount: number): Promise<number> {
  const updated = await sql<{ balance: string }>`
    update teams set credits_advanced_enrichment = credits_advanced_enrichment + ${amount}::bigint,
      updated_at = now()
    where id = ${teamId} and credits_advanced_enrichment + ${amount}::bigint >= 0
    returning credits_advanced_enrichment as balance
  `.execute(db);
  const row = updated.rows[0];
  if (!row) {
    const exists = await db.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst();
    if (!exists) throw notFound(`Team ${teamId}`);
    throw invalidField(
      'amount',
      `amount ${amount} would take the balance below 0 (the team has ${await creditBalance(db, teamId)}).`,
    );
  }
  const balance = Number(row.balance);
  await db
    .insertInto('credit_ledger')
    .values({ team_id: teamId, delta: amount, reason: 'grant', reference: null, balance_after: balance })
    .execute();
  return balance;
}

/**
 * Takes `needed` credits for the request `reference` (one `enrichment_reserve` row), or throws 402
 * with what is needed and available. Call it in the transaction that queues the work, so a refusal
 * (or any later failure) leaves nothing queued and nothing taken.
 */
export async function reserveCredits(
  db: Executor,
  teamId: number,
  needed: number,
  reference: string,
  what: string,
): Promise<number> {
  if (needed === 0) return creditBalance(db, teamId);
  const updated = await sql<{ balance: string }>`
    update teams set credits_advanced_enrichment = credits_advanced_enrichment - ${needed}::bigint
    where id = ${teamId} and credits_advanced_enrichment >= ${needed}::bigint
    returning credits_advanced_enrichment as balance
  `.execute(db);
  const row = updated.rows[0];
  if (!row) throw paymentRequired(needed, await creditBalance(db, teamId), what);
  const balance = Number(row.balance);
  await db
    .insertInto('credit_ledger')
    .values({
      team_id: teamId,
      delta: -needed,
      reason: 'enrichment_reserve',
      reference,
      balance_after: balance,
    })
    .execute();
  return balance;
}

/**
 * Gives back one credit per queue entry (`enrichment_refund` rows referencing the entry), at most once
 * per entry: entries already refunded are skipped (and a unique index guards it). Returns how many
 * credits went back.
 */
export async function refundCredits(db: Executor, teamId: number, entryUuids: string[]): Promise<number> {
  if (entryUuids.length === 0) return 0;
  // The team's row lock orders refunders of one team, so balance_after is exact.
  const locked = await sql<{ balance: string }>`
    select credits_advanced_enrichment as balance from teams where id = ${teamId} for update
  `.execute(db);
  const start = Number(locked.rows[0]?.balance ?? 0);
  const inserted = await sql<{ id: string }>`
    insert into credit_ledger (team_id, delta, reason, reference, balance_after)
    select ${teamId}, 1, 'enrichment_refund', r.ref, ${start}::bigint + row_number() over (order by r.n)
    from unnest(${entryUuids}::text[]) with ordinality as r(ref, n)
    -- An anti-join, not "not exists (...)": Citus refuses a correlated subquery beside unnest().
    left join credit_ledger x on x.team_id = ${teamId} and x.reason = 'enrichment_refund' and x.reference = r.ref
    where x.team_id is null
    returning id
  `.execute(db);
  const count = inserted.rows.length;
  if (count > 0) {
    await sql`
      update teams set credits_advanced_enrichment = credits_advanced_enrichment + ${count}::bigint
      where id = ${teamId}
    `.execute(db);
  }
  return count;
}
