import type { Static } from 'typebox';
import type { Database } from '../../db/database.js';
import { conflict, notFound } from '../../lib/errors.js';
import {
  markConversationRead,
  markConversationUnread,
  selectConversationUnread,
} from '../read-state/read-state.repository.js';
import { selectInbox } from './inbox.repository.js';
import type { ConversationReadBody, InboxQuery } from './inbox.schemas.js';

export function createInboxService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async list(teamId: number, query: Static<typeof InboxQuery>) {
      const { limit = 50, offset = 0, ...filter } = query;
      const page = await selectInbox(db, teamId, filter, { limit, offset });
      return { ...page, limit, offset, has_more: offset + page.data.length < page.total };
    },

    /** Marks one conversation read, or its latest message from the contact unread again. */
    async setRead(teamId: number, body: Static<typeof ConversationReadBody>) {
      const { read, ...ref } = body;
      return db.transaction().execute(async (trx) => {
        if ((await selectConversationUnread(trx, teamId, ref)) === undefined) throw notFound('Conversation');
        if (read) await markConversationRead(trx, teamId, ref);
        else if (!(await markConversationUnread(trx, teamId, ref))) {
          throw conflict('The contact sent nothing in this conversation: there is nothing to mark unread.');
        }
        return { ...ref, unread_count: (await selectConversationUnread(trx, teamId, ref)) ?? 0 };
      });
    },
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
