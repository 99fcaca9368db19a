// Which driver a sender acts through: on LinkedIn, its seat's (sandbox or a real browser), which must
// be running; on e-mail, its mailbox's. Channels that are not installed answer "unavailable" with the
// reason the sender's enrollments are parked for.
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import type { SeatDriver } from '../browsers/browsers.tables.js';
import type { SenderPauseReason } from '../enrollments/sender-pauses.js';
import type { Channel, ChannelDriver, ChannelPush, DriverRegistry } from './driver.js';
import type { InboxRegistry, LinkedInInbox } from './inbox.js';
import type { LinkedInReader, ReaderRegistry } from './reader.js';

export type SeatRow = {
  team_id: number;
  id: number;
  sender_profile_uuid: string;
  driver: SeatDriver;
  status: string;
};

/**
 * A seat driver kind, registered once (`seatKinds` in `src/deps/channels.ts`): how its seats act (the
 * engine), read (enrichment, data sources) and read their inbox (the LinkedIn messages sync), and, for a
 * kind whose network answers by itself (the sandbox), the push the engine's loop delivers. A kind without
 * a reader or an inbox makes those registries answer `no_reader` / `no_inbox` for its seats.
 */
export type SeatKind = {
  driver: (seat: SeatRow) => ChannelDriver;
  reader?: (seat: SeatRow) => LinkedInReader;
  inbox?: (seat: SeatRow) => LinkedInInbox;
  push?: ChannelPush;
};

export type SeatKinds = Partial<Record<SeatDriver, SeatKind>>;

/** One port of every registered kind: what the driver, reader or inbox registry takes. */
export function portsOf<P extends 'driver' | 'reader' | 'inbox'>(
  kinds: SeatKinds,
  port: P,
): Partial<Record<SeatDriver, NonNullable<SeatKind[P]>>> {
  const found: Partial<Record<SeatDriver, NonNullable<SeatKind[P]>>> = {};
  for (const [kind, registered] of Object.entries(kinds) as [SeatDriver, SeatKind][]) {
    const factory = registered[port];
    if (factory) found[kind] = factory as NonNullable<SeatKind[P]>;
  }
  return found;
}

export type DriverFactories = {
  /** A driver per seat driver kind (the sandbox network, a real browser). */
  linkedin: Partial<Record<SeatDriver, (seat: SeatRow) => ChannelDriver>>;
  /** The e-mail driver of a sender, or why it has none. */
  email?: (
    teamId: number,
    senderProfileUuid: string,
  ) => Promise<ChannelDriver | { unavailable: SenderPauseReason }>;
};

export function createDriverRegistry(
  db: Database,
  factories: DriverFactories,
  clock: () => Date = () => new Date(),
): DriverRegistry {
  return {
    async resolve(teamId, senderProfileUuid, channel: Channel) {
      if (channel === 'email') {
        return factories.email ? factories.email(teamId, senderProfileUuid) : { unavailable: 'no_mailbox' };
      }
      const seat = await db
        .selectFrom('linkedin_browsers')
        .select(['team_id', 'id', 'sender_profile_uuid', 'driver', 'status', 'viewer_lease_until'])
        .where('team_id', '=', teamId)
        .where('sender_profile_uuid', '=', senderProfileUuid)
        .orderBy('id')
        .executeTakeFirst();
      if (!seat) return { unavailable: 'no_linkedin_seat' };
      if (seat.status !== 'running') return { unavailable: 'seat_login_issue' };
      // Someone is logging in through the seat's live view: its browser is theirs until the lease ends.
      if (seat.viewer_lease_until && seat.viewer_lease_until > clock()) {
        return { busyUntil: seat.viewer_lease_until };
      }
      const factory = factories.linkedin[seat.driver];
      return factory ? factory(seat) : { unavailable: 'no_linkedin_seat' };
    },
  };
}

/** A reader per seat driver kind (the sandbox network, a real browser). */
export type ReaderFactories = Partial<Record<SeatDriver, (seat: SeatRow) => LinkedInReader>>;

/**
 * Which reader a sender reads LinkedIn through: its seat's, when the sender is enabled, the seat runs,
 * nobody is watching its live view and its driver kind has a reader.
 */
export function createReaderRegistry(db: Database, factories: ReaderFactories): ReaderRegistry {
  const seats = (teamId: number) =>
    db
      .selectFrom('linkedin_browsers as b')
      .innerJoin('sender_profiles as s', (join) =>
        join.onRef('s.team_id', '=', 'b.team_id').onRef('s.uuid', '=', 'b.sender_profile_uuid'),
      )
      .select([
        'b.team_id',
        'b.id',
        'b.sender_profile_uuid',
        'b.driver',
        'b.status',
        's.status as sender_status',
        sql<boolean>`coalesce(b.viewer_lease_until > now(), false)`.as('in_live_view'),
      ])
      .where('b.team_id', '=', teamId)
      .orderBy('b.id');
  const why = (seat: SeatRow & { in_live_view: boolean; sender_status: string }) => {
    if (seat.sender_status !== 'enabled') return 'sender_disabled';
    if (seat.status !== 'running') return 'seat_login_issue';
    if (seat.in_live_view) return 'seat_in_live_view';
    if (!factories[seat.driver]) return 'no_reader';
    return undefined;
  };
  return {
    async resolve(teamId, senderProfileUuid) {
      const seat = await seats(teamId)
        .where('b.sender_profile_uuid', '=', senderProfileUuid)
        .executeTakeFirst();
      if (!seat) return { unavailable: 'no_linkedin_seat' };
      const problem = why(seat);
      return problem ? { unavailable: problem } : factories[seat.driver]!(seat);
    },
    async available(teamId) {
      const found = new Map<string, LinkedInReader>();
      for (const seat of await seats(teamId).execute()) {
        if (found.has(seat.sender_profile_uuid) || why(seat)) continue;
        found.set(seat.sender_profile_uuid, factories[seat.driver]!(seat));
      }
      return [...found].map(([senderProfileUuid, reader]) => ({ senderProfileUuid, reader }));
    },
  };
}

/** An inbox per seat driver kind (the sandbox network, a real browser). */
export type InboxFactories = Partial<Record<SeatDriver, (seat: SeatRow) => LinkedInInbox>>;

/** Which inbox a sender's seat is read through: the seat must run and its driver kind have an inbox. */
export function createInboxRegistry(db: Database, factories: InboxFactories): InboxRegistry {
  return {
    async resolve(teamId, senderProfileUuid) {
      const seat = await db
        .selectFrom('linkedin_browsers')
        .select(['team_id', 'id', 'sender_profile_uuid', 'driver', 'status'])
        .where('team_id', '=', teamId)
        .where('sender_profile_uuid', '=', senderProfileUuid)
        .orderBy('id')
        .executeTakeFirst();
      if (!seat) return { unavailable: 'no_linkedin_seat' };
      if (seat.status !== 'running') return { unavailable: 'seat_login_issue' };
      const factory = factories[seat.driver];
      return factory ? factory(seat) : { unavailable: 'no_inbox' };
    },
  };
}
