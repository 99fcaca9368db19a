// Enrichment use cases: queueing contacts or companies (reserving one credit each, 402 when short),
// the queue list and the month's count. Workers (enrichment.worker.ts) read and fill; flows queue
// through `queueLeadsFromFlow` (enrichment.flow.ts, gs_enqueue_for_enrichment). See CONTEXT.md.
import type { RawBuilder, SqlBool } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { invalidField } from '../../lib/errors.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { compileMassActionFilter } from '../companies/companies.mass-actions.js';
import { loadLeadFilterSpec } from '../leads/leads.filter.js';
import { massActionWhere } from '../leads/leads.mass-actions.js';
import { reserveCredits } from './credits.js';
import * as repo from './enrichment.repository.js';
import type { EnrichmentObject } from './enrichment.tables.js';
import { scheduleEnrichment } from './enrichment.worker.js';

export type EnrichBody = { uuids?: string[]; filter?: Record<string, unknown> | null; refresh?: boolean };

const queueFilter: FilterSpec = {
  name: 'enrichment queue filter',
  fields: {
    status: { type: 'enum', values: ['pending', 'processing', 'done', 'failed'] },
    object: { type: 'enum', values: ['lead', 'company'] },
    object_uuid: { type: 'uuid' },
  },
};

/**
 * Queues the selected records and reserves one credit per queued record, in the caller's transaction:
 * 402 (and nothing queued) when the team has fewer credits than records to queue.
 */
async function queueSelection(
  trx: Executor,
  teamId: number,
  object: EnrichmentObject,
  alias: string,
  where: RawBuilder<SqlBool>,
  refresh: boolean,
  now: Date,
) {
  const requestUuid = newId();
  const { queued, selected } = await repo.insertQueueEntries(trx, teamId, object, alias, where, {
    refresh,
    source: 'api',
    requestUuid,
    now,
  });
  const balance = await reserveCredits(
    trx,
    teamId,
    queued,
    requestUuid,
    object === 'lead' ? `contact${queued === 1 ? '' : 's'}` : `compan${queued === 1 ? 'y' : 'ies'}`,
  );
  // Also wakes the worker for entries that were waiting already (a sender may read now).
  await scheduleEnrichment(trx, teamId);
  return { count: queued, skipped: selected - queued, credits_remaining: balance };
}

function selectionOf(body: EnrichBody): Record<string, unknown> {
  if (body.uuids === undefined && (body.filter === undefined || body.filter === null)) {
    throw invalidField('uuids', 'Say what to enrich: uuids (a list of UUIDs) or filter.');
  }
  return { ...(body.filter ?? {}), ...(body.uuids !== undefined ? { ids: body.uuids } : {}) };
}

export function createEnrichmentService(deps: { db: Database; clock: Clock }) {
  const { db } = deps;
  return {
    async enrichLeads(teamId: number, body: EnrichBody) {
      const selection = selectionOf(body);
      const where = massActionWhere(await loadLeadFilterSpec(db, teamId), selection);
      return db
        .transaction()
        .execute((trx) =>
          queueSelection(trx, teamId, 'lead', 'l', where, body.refresh ?? false, deps.clock.now()),
        );
    },

    async enrichCompanies(teamId: number, body: EnrichBody) {
      const selection = selectionOf(body);
      const where = await compileMassActionFilter(db, teamId, selection);
      return db
        .transaction()
        .execute((trx) =>
          queueSelection(trx, teamId, 'company', 'c', where, body.refresh ?? false, deps.clock.now()),
        );
    },

    async listQueue(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.queueSort);
      const where = compileFilter(queueFilter, params.filter);
      const { rows, total } = await repo.selectQueuePage(db, teamId, where, page);
      return envelope(rows, total, page);
    },

    async metrics(teamId: number) {
      const now = deps.clock.now();
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      return { this_month_count: await repo.countQueuedSince(db, teamId, monthStart) };
    },
  };
}

export type EnrichmentService = ReturnType<typeof createEnrichmentService>;
