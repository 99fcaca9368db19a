import type { Static } from 'typebox';
import type { Database } from '../../db/database.js';
import { selectInbox } from './inbox.repository.js';
import type { InboxQuery } from './inbox.schemas.js';

export function createInboxService(deps: { db: Database }) {
  return {
    async list(teamId: number, query: Static<typeof InboxQuery>) {
      const { limit = 50, offset = 0, ...filter } = query;
      const page = await selectInbox(deps.db, teamId, filter, { limit, offset });
      return { ...page, limit, offset, has_more: offset + page.data.length < page.total };
    },
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
