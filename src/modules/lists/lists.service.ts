import type { Database } from '../../db/database.js';
import { AppError, conflict, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { replaceListInCompanies } from '../companies/companies.repository.js';
import { deleteLeadsOfList } from '../leads/lead-deletion.js';
import { moveListContacts } from '../leads/leads.tracked-update.js';
import * as repo from './lists.repository.js';

export type DeleteListOptions = { move_to_list_uuid?: string; delete_contacts?: boolean };

export function createListsService(deps: { db: Database }) {
  const { db } = deps;

  async function requireList(teamId: number, uuid: string) {
    const list = await repo.selectList(db, teamId, uuid);
    if (!list) throw notFound('List');
    return list;
  }

  return {
    async listLists(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.listSort);
      const { rows, total } = await repo.selectLists(db, teamId, params.filter, page);
      return envelope(rows, total, page);
    },

    getList: requireList,

    async createList(teamId: number, name: string) {
      return repo.insertList(db, { team_id: teamId, uuid: newId(), name: name.trim() });
    },

    async renameList(teamId: number, uuid: string, name: string) {
      const list = await repo.updateList(db, teamId, uuid, name.trim());
      if (!list) throw notFound('List');
      return list;
    },

    /**
     * The hosted service deletes a list's contacts with it; we refuse a non-empty list unless the
     * caller says where its contacts go (another list) or that they are to be deleted.
     */
    async deleteList(teamId: number, uuid: string, options: DeleteListOptions) {
      if (options.move_to_list_uuid && options.delete_contacts) {
        throw new AppError(
          'validation_error',
          'Give either move_to_list_uuid or delete_contacts, not both.',
          {
            move_to_list_uuid: ['cannot be combined with delete_contacts'],
          },
        );
      }
      if (options.move_to_list_uuid === uuid) {
        throw invalidField('move_to_list_uuid', 'move_to_list_uuid must name another list.');
      }
      await db.transaction().execute(async (trx) => {
        if (!(await repo.lockList(trx, teamId, uuid))) throw notFound('List');
        if (options.move_to_list_uuid) {
          if (!(await repo.selectList(trx, teamId, options.move_to_list_uuid))) {
            throw invalidField('move_to_list_uuid', 'move_to_list_uuid does not name one of your lists.');
          }
          await moveListContacts(trx, teamId, uuid, options.move_to_list_uuid);
        } else if (options.delete_contacts) {
          await deleteLeadsOfList(trx, teamId, uuid);
        } else {
          const count = await repo.countLeadsInList(trx, teamId, uuid);
          if (count > 0) {
            throw conflict(
              `The list still holds ${count} contact(s). Pass move_to_list_uuid to move them to another list, ` +
                'or delete_contacts: true to delete them with the list.',
              { leads_count: count },
            );
          }
        }
        await replaceListInCompanies(trx, teamId, uuid, options.move_to_list_uuid);
        await repo.deleteList(trx, teamId, uuid);
      });
    },

    async listMetrics(teamId: number, uuids: string[]) {
      const rows = uuids.length > 0 ? await repo.selectListLeadCounts(db, teamId, uuids) : [];
      return Object.fromEntries(rows.map((row) => [row.uuid, { leads_count: row.leads_count }]));
    },
  };
}

export type ListsService = ReturnType<typeof createListsService>;
