// Reading a seat's inbox: new messages (incoming and, where the channel shows them, our own) and
// accepted invitations, in the order the channel stores them, from a cursor. The sync of the
// linkedin-messages module (src/modules/linkedin-messages/linkedin-sync.ts) reads through this and
// stores what is new once; the cursor is opaque to it (an id, a timestamp, a remote paging token).
// Like the action driver and the reader, an inbox never throws for an expected outcome.
import type { Executor } from '../../db/database.js';
import type { PersonRef, ReadContext, ReadOutcome } from './reader.js';

/** Who a message is with (the other side of the conversation). */
export type InboxMember = PersonRef & { full_name?: string | null };

export type InboxItem =
  | {
      kind: 'message';
      /** The channel's id of the message: stored once per sender. */
      id: string;
      /** The channel's id of the conversation, when it has one. */
      conversationId: string | null;
      /** inbox: the member wrote it; outbox: the seat did (sent outside Leadflow or before). */
      direction: 'inbox' | 'outbox';
      member: InboxMember;
      /** When the channel already knows which contact it is (the sandbox); real channels leave it out. */
      leadUuid?: string | null;
      text: string | null;
      subject: string | null;
      /** 'MEMBER_TO_MEMBER', 'InMail', 'connection_note'... */
      linkedinType: string;
      sentAt: Date;
    }
  | {
      kind: 'accepted';
      /** The channel's id of the acceptance (or of the invitation). */
      id: string;
      member: InboxMember;
      leadUuid?: string | null;
      at: Date;
    }
  | {
      /** A read receipt: the member has read the conversation up to `at` (our messages sent by then). */
      kind: 'seen';
      /** The channel's id of the receipt. */
      id: string;
      conversationId: string | null;
      member: InboxMember;
      leadUuid?: string | null;
      at: Date;
    };

export type InboxPage = {
  items: InboxItem[];
  /** Pass back to read on; null when the channel has no cursor to give (read from the start). */
  cursor: string | null;
  hasMore: boolean;
  /**
   * How many conversations the channel's inbox listed on this read, when it lists them (the browser): the
   * sync flags a seat whose inbox comes back empty twice in a row after it had conversations.
   */
  conversations?: number;
};

export interface LinkedInInbox {
  readonly name: string;
  /** Up to `limit` items after `cursor` (null: from the beginning the channel keeps). */
  readSince(context: ReadContext, cursor: string | null, limit: number): Promise<ReadOutcome<InboxPage>>;
}

export interface InboxRegistry {
  /** The inbox of a sender's running seat, or why there is none. */
  resolve(teamId: number, senderProfileUuid: string): Promise<LinkedInInbox | { unavailable: string }>;
}

/**
 * Where a channel that pushes (the sandbox network answering) hands what arrived in a seat's inbox, inside
 * its own transaction: the LinkedIn messages module's ingestion, given by the composition root.
 */
export type InboxSink = (
  trx: Executor,
  teamId: number,
  senderProfileUuid: string,
  items: InboxItem[],
  now: Date,
) => Promise<unknown>;
