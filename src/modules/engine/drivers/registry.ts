// Which driver a sender acts through: on LinkedIn, its seat's (sandbox or a real browser), which must
// be running; on e-mail, its mailbox's. Channels that are not installed answer "unavailable" with the
// reason the sender's enrollments are parked for.
import type { Database } from '../../../db/database.js';
import type { SeatDriver } from '../../browsers/browsers.tables.js';
import type { SenderPauseReason } from '../sender-pauses.js';
import type { Channel, ChannelDriver, DriverRegistry } from './driver.js';

export type SeatRow = {
  team_id: number;
  id: number;
  sender_profile_uuid: string;
  driver: SeatDriver;
  status: string;
};

export type DriverFactories = {
  /** A driver per seat driver kind (the sandbox network, a real browser). */
  linkedin: Partial<Record<SeatDriver, (seat: SeatRow) => ChannelDriver>>;
  /** The e-mail driver of a sender, or why it has none. */
  email?: (
    teamId: number,
    senderProfileUuid: string,
  ) => Promise<ChannelDriver | { unavailable: SenderPauseReason }>;
};

export function createDriverRegistry(db: Database, factories: DriverFactories): DriverRegistry {
  return {
    async resolve(teamId, senderProfileUuid, channel: Channel) {
      if (channel === 'email') {
        return factories.email ? factories.email(teamId, senderProfileUuid) : { unavailable: 'no_mailbox' };
      }
      const seat = await db
        .selectFrom('linkedin_browsers')
        .select(['team_id', 'id', 'sender_profile_uuid', 'driver', 'status'])
        .where('team_id', '=', teamId)
        .where('sender_profile_uuid', '=', senderProfileUuid)
        .orderBy('id')
        .executeTakeFirst();
      if (!seat) return { unavailable: 'no_linkedin_seat' };
      if (seat.status !== 'running') return { unavailable: 'seat_login_issue' };
      const factory = factories.linkedin[seat.driver];
      return factory ? factory(seat) : { unavailable: 'no_linkedin_seat' };
    },
  };
}
