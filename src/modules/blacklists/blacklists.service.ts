import type { Database } from '../../db/database.js';
import { conflict, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import {
  type CompanyBlacklistInput,
  companyBlacklistValues,
  type LeadBlacklistInput,
  leadBlacklistValues,
} from './blacklist-input.js';
import {
  flagCompaniesMatchingEntry,
  flagLeadsMatchingEntry,
  unflagCompaniesOfRemovedEntry,
  unflagLeadsOfRemovedEntry,
} from './blacklist-match.js';
import * as repo from './blacklists.repository.js';

type Actor = { teamId: number; userId: number };

/**
 * Creating an entry flags the records it matches and deleting one recomputes the flag of the records
 * it matched, each in the entry's transaction, so `is_blacklisted` never disagrees with the entries.
 */
export function createBlacklistsService(deps: { db: Database }) {
  const { db } = deps;

  return {
    async listLeadEntries(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.blacklistSort);
      const { rows, total } = await repo.selectLeadEntries(db, teamId, params.filter, page);
      return envelope(rows, total, page);
    },

    async getLeadEntry(teamId: number, uuid: string) {
      const entry = await repo.selectLeadEntry(db, teamId, uuid);
      if (!entry) throw notFound('Contact blacklist entry');
      return entry;
    },

    async createLeadEntry({ teamId, userId }: Actor, input: LeadBlacklistInput) {
      const values = leadBlacklistValues(input);
      return db.transaction().execute(async (trx) => {
        await repo.lockTeamBlacklist(trx, 'leads_blacklist', teamId);
        const entry = await repo.insertLeadEntry(trx, {
          team_id: teamId,
          uuid: newId(),
          user_id: userId,
          ...values,
        });
        if (!entry) {
          const existing = await repo.selectSameLeadEntry(trx, teamId, values);
          throw conflict('The contact blacklist already holds an entry with exactly these values.', {
            uuid: existing?.uuid,
          });
        }
        await flagLeadsMatchingEntry(trx, teamId, values);
        return entry;
      });
    },

    async deleteLeadEntry(teamId: number, uuid: string) {
      await db.transaction().execute(async (trx) => {
        await repo.lockTeamBlacklist(trx, 'leads_blacklist', teamId);
        const entry = await repo.deleteLeadEntry(trx, teamId, uuid);
        if (!entry) throw notFound('Contact blacklist entry');
        await unflagLeadsOfRemovedEntry(trx, teamId, entry);
      });
    },

    async listCompanyEntries(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.blacklistSort);
      const { rows, total } = await repo.selectCompanyEntries(db, teamId, params.filter, page);
      return envelope(rows, total, page);
    },

    async getCompanyEntry(teamId: number, uuid: string) {
      const entry = await repo.selectCompanyEntry(db, teamId, uuid);
      if (!entry) throw notFound('Company blacklist entry');
      return entry;
    },

    async createCompanyEntry({ teamId, userId }: Actor, input: CompanyBlacklistInput) {
      const values = companyBlacklistValues(input);
      return db.transaction().execute(async (trx) => {
        await repo.lockTeamBlacklist(trx, 'companies_blacklist', teamId);
        const entry = await repo.insertCompanyEntry(trx, {
          team_id: teamId,
          uuid: newId(),
          user_id: userId,
          ...values,
        });
        if (!entry) {
          const existing = await repo.selectSameCompanyEntry(trx, teamId, values);
          throw conflict('The company blacklist already holds an entry with exactly these values.', {
            uuid: existing?.uuid,
          });
        }
        await flagCompaniesMatchingEntry(trx, teamId, values);
        return entry;
      });
    },

    async deleteCompanyEntry(teamId: number, uuid: string) {
      await db.transaction().execute(async (trx) => {
        await repo.lockTeamBlacklist(trx, 'companies_blacklist', teamId);
        const entry = await repo.deleteCompanyEntry(trx, teamId, uuid);
        if (!entry) throw notFound('Company blacklist entry');
        await unflagCompaniesOfRemovedEntry(trx, teamId, entry);
      });
    },
  };
}

export type BlacklistsService = ReturnType<typeof createBlacklistsService>;
