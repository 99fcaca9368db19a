// LinkedIn seats, the part the engine needs: a seat binds a sender to a driver (a real browser or the
// sandbox network), and only a running seat acts. Creating or running a seat resumes the sender's
// enrollments that were parked for want of one.
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, invalidField, notFound } from '../../lib/errors.js';
import {
  envelope,
  orderByClause,
  type PageParams,
  resolvePage,
  type SortSpec,
} from '../../lib/pagination.js';
import { resumeSenderActions } from '../engine/sender-pauses.js';
import { SEAT_SORT } from './browsers.sort.js';
import type { SeatDriver } from './browsers.tables.js';

type Actor = { teamId: number; userId: number };

export function createBrowsersService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function requireSeat(teamId: number, id: number) {
    const seat = await db
      .selectFrom('linkedin_browsers')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!seat) throw notFound('Seat');
    return seat;
  }

  return {
    async createSeat(
      actor: Actor,
      input: { sender_profile_uuid: string; driver?: SeatDriver; name?: string | null },
    ) {
      return db.transaction().execute(async (trx) => {
        const sender = await trx
          .selectFrom('sender_profiles')
          .select(['uuid', 'linkedin_browser_id'])
          .where('team_id', '=', actor.teamId)
          .where('uuid', '=', input.sender_profile_uuid)
          .forUpdate()
          .executeTakeFirst();
        if (!sender) {
          throw invalidField(
            'sender_profile_uuid',
            'sender_profile_uuid: no sender profile of yours has this UUID.',
          );
        }
        const existing = await trx
          .selectFrom('linkedin_browsers')
          .select('id')
          .where('team_id', '=', actor.teamId)
          .where('sender_profile_uuid', '=', sender.uuid)
          .executeTakeFirst();
        if (existing)
          throw conflict(`This sender profile already has seat ${existing.id}; delete it first.`, {
            id: existing.id,
          });
        const driver = input.driver ?? 'chromium';
        const seat = await trx
          .insertInto('linkedin_browsers')
          .values({
            team_id: actor.teamId,
            sender_profile_uuid: sender.uuid,
            driver,
            name: input.name ?? null,
            // The sandbox network needs no login: its seats run at once.
            status: driver === 'sandbox' ? 'running' : 'stopped',
            last_start_at: driver === 'sandbox' ? new Date() : null,
            user_id: actor.userId,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('sender_profiles')
          .set({ linkedin_browser_id: seat.id, updated_at: new Date() })
          .where('team_id', '=', actor.teamId)
          .where('uuid', '=', sender.uuid)
          .execute();
        if (seat.status === 'running') {
          await resumeSenderActions(
            trx,
            actor.teamId,
            sender.uuid,
            ['no_linkedin_seat', 'seat_login_issue'],
            clock.now(),
          );
        }
        return seat;
      });
    },

    /** The hosted service sorts this list ascending by default. */
    async listSeats(teamId: number, params: PageParams) {
      const page = resolvePage({ ...params, order_type: params.order_type ?? 'asc' }, SEAT_SORT);
      const base = db.selectFrom('linkedin_browsers').where('team_id', '=', teamId);
      const [rows, count] = await Promise.all([
        base
          .selectAll()
          .orderBy(orderByClause(page, SEAT_SORT))
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return envelope(rows, Number(count.total), page);
    },

    getSeat: requireSeat,

    async deleteSeat(teamId: number, id: number) {
      await requireSeat(teamId, id);
      await db.transaction().execute(async (trx) => {
        const seat = await trx
          .deleteFrom('linkedin_browsers')
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .returning('sender_profile_uuid')
          .executeTakeFirst();
        if (seat) {
          await trx
            .updateTable('sender_profiles')
            .set({ linkedin_browser_id: null, updated_at: new Date() })
            .where('team_id', '=', teamId)
            .where('uuid', '=', seat.sender_profile_uuid)
            .execute();
        }
      });
    },

    /** Starts the seat. A browser seat that never logged in cannot start: it shows login_issue. */
    async runSeat(teamId: number, id: number) {
      const seat = await requireSeat(teamId, id);
      const running = seat.driver === 'sandbox' || seat.linkedin_account_uuid !== null;
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('linkedin_browsers')
          .set({
            status: running ? 'running' : 'login_issue',
            error_reason: running
              ? null
              : 'The seat has never been logged in; share its login link with the account owner.',
            last_start_at: running ? new Date() : seat.last_start_at,
            updated_at: new Date(),
          })
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .execute();
        if (running)
          await resumeSenderActions(trx, teamId, seat.sender_profile_uuid, [
            'no_linkedin_seat',
            'seat_login_issue',
          ]);
      });
    },

    async stopSeat(teamId: number, id: number) {
      await requireSeat(teamId, id);
      await db
        .updateTable('linkedin_browsers')
        .set({ status: 'stopped', updated_at: new Date() })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .execute();
    },
  };
}

export type BrowsersService = ReturnType<typeof createBrowsersService>;
