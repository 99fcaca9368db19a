// A chromium seat's selector health and its per-action circuit breakers. The health tour
// (chromium/chromium-health.ts) says which items each page showed; an action that could not find its
// page's hooks before its irreversible click counts a miss for its type. A breaker OPENS - the action
// type pauses for the seat (the driver answers `selector_health`, the engine holds that type back), one
// `sender_profile_issue` event of type `selector_health`, the seat shows it in `selector_health` - when a
// tour misses an item the type needs, or after BREAKER_MISSES misses of the type in a row. It CLOSES when a
// tour finds everything the type needs. Instead of burning retries on a page the driver no longer knows.
import { sql } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { ActionType } from '../channels/driver.js';
import { emitEvents } from '../events/emit.js';
import { senderObject } from '../events/event-objects.js';
import type { ActionBreaker } from './browsers.tables.js';
import type { HealthReport } from './chromium/chromium-health.js';
import { ACTIONS_NEEDING } from './chromium/site-check.js';

/** Misses in a row of one action type (before its click) that open its breaker. */
export const BREAKER_MISSES = 3;
/** How long the engine holds a paused type back before asking the seat again (the driver answers at once). */
export const BREAKER_RECHECK_MS = 3_600_000;

type Seat = { teamId: number; seatId: number };
type Breakers = Record<string, ActionBreaker>;

async function lockBreakers(trx: Executor, seat: Seat) {
  return sql<{ action_breakers: Breakers; sender_profile_uuid: string }>`
    select action_breakers, sender_profile_uuid from linkedin_browsers
    where team_id = ${seat.teamId} and id = ${seat.seatId} for update
  `
    .execute(trx)
    .then((r) => r.rows[0]);
}

async function saveBreakers(trx: Executor, seat: Seat, breakers: Breakers, now: Date) {
  await sql`
    update linkedin_browsers set action_breakers = ${JSON.stringify(breakers)}::jsonb, updated_at = ${now}
    where team_id = ${seat.teamId} and id = ${seat.seatId}
  `.execute(trx);
}

/** Opens the breakers of `types` that are closed; one event names them all. */
async function open(
  trx: Executor,
  seat: Seat,
  row: { action_breakers: Breakers; sender_profile_uuid: string },
  types: ActionType[],
  reason: string,
  now: Date,
): Promise<ActionType[]> {
  const opened = types.filter((t) => !row.action_breakers[t]?.open_since);
  for (const type of opened) {
    row.action_breakers[type] = {
      misses: row.action_breakers[type]?.misses ?? 0,
      open_since: now.toISOString(),
      reason,
    };
  }
  if (opened.length === 0) return [];
  await emitEvents(trx, seat.teamId, [
    {
      name: 'sender_profile_issue',
      sender_profile: await senderObject(trx, seat.teamId, row.sender_profile_uuid),
      issue: {
        type: 'selector_health',
        message: `Paused on this seat until a health check passes: ${opened.join(', ')} (${reason}).`,
      },
      occurredAt: now,
    },
  ]);
  return opened;
}

/** Stores a tour's report and opens or closes the breakers it decides. Answers the types opened. */
export async function applyHealthReport(
  db: Database,
  seat: Seat,
  report: HealthReport,
  now: Date,
): Promise<ActionType[]> {
  return db.transaction().execute(async (trx) => {
    const row = await lockBreakers(trx, seat);
    if (!row) return [];
    await sql`
      update linkedin_browsers set health = ${JSON.stringify(report)}::jsonb, health_checked_at = ${now}
      where team_id = ${seat.teamId} and id = ${seat.seatId}
    `.execute(trx);
    if (report.session || report.error) return [];
    const seen = new Set(
      report.steps.flatMap((s) => s.items.filter((i) => i.matched || i.empty).map((i) => i.item)),
    );
    const missedBy = new Map<ActionType, string[]>();
    for (const [item, types] of Object.entries(ACTIONS_NEEDING)) {
      for (const type of types) {
        if (report.missed.includes(item)) missedBy.set(type, [...(missedBy.get(type) ?? []), item]);
      }
    }
    // Closed: every item the type needs was seen, none missed.
    for (const [type, breaker] of Object.entries(row.action_breakers)) {
      const needs = Object.entries(ACTIONS_NEEDING)
        .filter(([, types]) => types.includes(type as ActionType))
        .map(([item]) => item);
      if (!missedBy.has(type as ActionType) && needs.every((item) => seen.has(item)) && breaker) {
        row.action_breakers[type] = { misses: 0, open_since: null, reason: null };
      }
    }
    const missedItems = [...new Set([...missedBy.values()].flat())];
    const opened = await open(
      trx,
      seat,
      row,
      [...missedBy.keys()],
      `the health check found no ${missedItems.join(', ')}`,
      now,
    );
    await saveBreakers(trx, seat, row.action_breakers, now);
    return opened;
  });
}

/** What the Chromium driver asks and tells about a seat's breakers (ChromiumOptions.breakers). */
export type ActionBreakers = {
  /** Why `type` is paused for the seat, or null. */
  paused(type: ActionType): Promise<string | null>;
  /** The action could not find its page's hooks before its click. */
  missed(type: ActionType, message: string): Promise<void>;
  /** The action found its page (whatever LinkedIn answered). */
  found(type: ActionType): Promise<void>;
};

export function seatBreakers(db: Database, seat: Seat, clock: () => Date = () => new Date()): ActionBreakers {
  return {
    async paused(type) {
      const row = await db
        .selectFrom('linkedin_browsers')
        .select('action_breakers')
        .where('team_id', '=', seat.teamId)
        .where('id', '=', seat.seatId)
        .executeTakeFirst();
      const breaker = row?.action_breakers[type];
      return breaker?.open_since ? (breaker.reason ?? 'paused') : null;
    },
    async missed(type, message) {
      const now = clock();
      await db.transaction().execute(async (trx) => {
        const row = await lockBreakers(trx, seat);
        if (!row) return;
        const breaker = row.action_breakers[type] ?? { misses: 0, open_since: null, reason: null };
        row.action_breakers[type] = { ...breaker, misses: breaker.misses + 1 };
        if (breaker.misses + 1 >= BREAKER_MISSES) {
          await open(trx, seat, row, [type], `${BREAKER_MISSES} misses in a row: ${message}`, now);
        }
        await saveBreakers(trx, seat, row.action_breakers, now);
      });
    },
    async found(type) {
      // Only a count to reset costs a write.
      await sql`
        update linkedin_browsers
        set action_breakers = jsonb_set(action_breakers, ${`{${type},misses}`}::text[], '0'::jsonb)
        where team_id = ${seat.teamId} and id = ${seat.seatId}
          and coalesce((action_breakers -> ${type} ->> 'misses')::int, 0) > 0
          and action_breakers -> ${type} ->> 'open_since' is null
      `.execute(db);
    },
  };
}

/** The seat's `selector_health` as the API shows it. */
export function presentHealth(row: {
  health: Record<string, unknown> | null;
  health_checked_at: Date | null;
  health_requested_at: Date | null;
  action_breakers: Breakers;
}) {
  const report = row.health as Partial<HealthReport> | null;
  return {
    checked_at: row.health_checked_at,
    requested_at: row.health_requested_at,
    missed: [...new Set(report?.missed ?? [])],
    error: report?.error ?? (report?.session ? `the session ended (${report.session})` : null),
    paused_actions: Object.entries(row.action_breakers ?? {})
      .filter(([, b]) => b.open_since)
      .map(([type, b]) => ({ type, since: new Date(b.open_since!), reason: b.reason ?? '' })),
  };
}
