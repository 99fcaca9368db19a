import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { invalidField, notFound } from '../../lib/errors.js';
import { parseLinkedInPerson } from '../../lib/linkedin.js';
import { normalizeEmail } from '../../lib/normalize.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { periodBounds } from '../../lib/period.js';
import { selectLeadMarkers } from '../activities/markers.repository.js';
import { queueBulkOperation } from '../bulk-operations/bulk-operations.jobs.js';
import { selectCustomFieldDefinitions } from '../custom-fields/custom-fields.repository.js';
import { selectUnreadCounts } from '../read-state/read-state.repository.js';
import { deleteLead } from './lead-deletion.js';
import { teamLeadTotal } from './leads.counts.js';
import { leadFilterSpec } from './leads.filter.js';
import { LINKEDIN_FORMS, type MatchKeys } from './leads.input.js';
import { assertMassActionPayload, massActionWhere, prepareMassAction } from './leads.mass-actions.js';
import { type LeadRow, presentLead } from './leads.present.js';
import {
  countLeads,
  countLeadsForMetrics,
  leadSort,
  selectLeadPage,
  selectLeadPageAndTotal,
} from './leads.query.js';
import { matchLeads, selectLead } from './leads.repository.js';
import { compileSelection, isSelectionObject } from './leads.selection.js';
import { updateLead } from './leads.update.js';
import { type Actor, createLeads, type UpsertBody, upsertLead } from './leads.write.js';

export type LookupInput = {
  linkedin_id?: string | null;
  email?: string | null;
  name?: string | null;
  company_name?: string | null;
};

export type CountInput = { all?: boolean; ids?: string[]; filter?: Record<string, unknown> | null };

export type MetricsInput = {
  period_from?: string;
  period_to?: string;
  metrics: string[];
  filter?: Record<string, unknown> | null;
};

/** Metrics of activities (messages, e-mails) that this release does not record yet: always 0. */
const CONTACT_METRICS = ['leads_count', 'new_leads_count'];

/** Filter keys served by GIN indexes: counting their matches reads the rows anyway. */
const GIN_FILTER_KEYS = ['tags', 'tags_all', 'custom_fields', 'q'];

function usesGinIndexedKeys(filter: unknown): boolean {
  return isSelectionObject(filter) && GIN_FILTER_KEYS.some((key) => key in filter);
}

export function createLeadsService(deps: { db: Database; config: Config }) {
  const { db } = deps;
  const definitionsOf = (teamId: number) => selectCustomFieldDefinitions(db, teamId, 'lead');

  async function present(teamId: number, rows: LeadRow[]) {
    const definitions = await definitionsOf(teamId);
    return rows.map((row) => presentLead(row, definitions));
  }

  return {
    async createLeads(actor: Actor, body: { list_uuid: string; leads: Record<string, unknown>[] }) {
      const definitions = await definitionsOf(actor.teamId);
      const results = await createLeads(db, actor, definitions, body);
      return results.map(({ row, status }) => presentLead(row, definitions, { create_status: status }));
    },

    async upsertLead(actor: Actor, body: UpsertBody) {
      const definitions = await definitionsOf(actor.teamId);
      const { row, status } = await upsertLead(db, actor, definitions, body);
      return presentLead(row, definitions, { upsert_status: status });
    },

    /**
     * One contact; with `aggregate`, also its markers (counters kept per sender) and unread counts (from
     * the partial indexes of unread rows) - neither counts messages here.
     */
    async getLead(teamId: number, uuid: string, options: { aggregate?: boolean } = {}) {
      const row = await selectLead(db, teamId, uuid);
      if (!row) throw notFound('Contact');
      const lead = (await present(teamId, [row]))[0]!;
      if (options.aggregate === false) return lead;
      const [markers, unread] = await Promise.all([
        selectLeadMarkers(db, teamId, uuid),
        selectUnreadCounts(db, teamId, uuid),
      ]);
      return { ...lead, markers, unread_counts: unread };
    },

    async lookupLead(teamId: number, input: LookupInput) {
      const keys: MatchKeys = {
        ln_member_id: null,
        ln_id: null,
        sn_id: null,
        linkedin: null,
        work_email: null,
        personal_email: null,
        name: input.name?.trim() || null,
        company_name: input.company_name?.trim() || null,
      };
      const reference = input.linkedin_id?.trim();
      if (reference) {
        const parsed = parseLinkedInPerson(reference);
        if (!parsed) {
          throw invalidField(
            'linkedin_id',
            `linkedin_id is not a LinkedIn reference we can read. Accepted: ${LINKEDIN_FORMS}.`,
          );
        }
        Object.assign(keys, parsed);
      }
      if (input.email?.trim()) {
        const email = normalizeEmail(input.email);
        if (!email) throw invalidField('email', `email must be an e-mail address (got "${input.email}").`);
        keys.work_email = email;
        keys.personal_email = email;
      }
      if ((keys.name === null) !== (keys.company_name === null)) {
        const missing = keys.name === null ? 'name' : 'company_name';
        throw invalidField(missing, `${missing} is required when looking up by name and company_name.`);
      }
      if (!reference && !keys.work_email && keys.name === null) {
        throw invalidField('linkedin_id', 'Give linkedin_id, email, or name together with company_name.');
      }
      const match = (await matchLeads(db, teamId, [{ ord: 0, ...keys }])).get(0);
      if (!match) throw notFound('Contact');
      return (await present(teamId, [match]))[0]!;
    },

    async updateLead(actor: Actor, uuid: string, body: Record<string, unknown>) {
      const definitions = await definitionsOf(actor.teamId);
      return presentLead(await updateLead(db, actor.teamId, uuid, body), definitions);
    },

    async deleteLead(teamId: number, uuid: string) {
      const deleted = await db.transaction().execute((trx) => deleteLead(trx, teamId, uuid));
      if (deleted === 0) throw notFound('Contact');
    },

    async searchLeads(teamId: number, params: PageParams & { filter?: Record<string, unknown> | null }) {
      const page = resolvePage(params, leadSort);
      // Definitions are needed to compile a custom_fields filter; otherwise they are only needed to
      // present the page, so they load alongside the page and the total.
      const definitions = definitionsOf(teamId);
      definitions.catch(() => undefined);
      const usesCustomFields =
        isSelectionObject(params.filter) &&
        ('custom_fields' in params.filter ||
          (isSelectionObject(params.filter.leadFilter) && 'custom_fields' in params.filter.leadFilter));
      const where = compileSelection(
        leadFilterSpec(usesCustomFields ? await definitions : [], teamId),
        params.filter,
        'filter',
        { emptyMeansAll: true },
      );
      if (where && usesGinIndexedKeys(params.filter)) {
        const combined = await selectLeadPageAndTotal(db, teamId, where, page);
        if (combined) {
          const fields = await definitions;
          return envelope(
            combined.rows.map((row) => presentLead(row, fields)),
            combined.total,
            page,
          );
        }
      }
      const [rows, total, fields] = await Promise.all([
        selectLeadPage(db, teamId, where, page),
        where ? countLeads(db, teamId, where) : teamLeadTotal(db, teamId),
        definitions,
      ]);
      return envelope(
        rows.map((row) => presentLead(row, fields)),
        total,
        page,
      );
    },

    async countLeads(teamId: number, input: CountInput) {
      const spec = leadFilterSpec(await definitionsOf(teamId), teamId);
      // {"filter": {"all": true, "leadFilter": {...}}} and {"all": true, "filter": {...}} mean the same.
      const nested = isSelectionObject(input.filter) ? input.filter : {};
      const selection: Record<string, unknown> = { ...nested };
      if (input.all !== undefined) selection.all = input.all || nested.all === true;
      if (input.ids !== undefined) selection.ids = input.ids;
      const where = compileSelection(spec, selection, 'filter');
      const total = where ? await countLeads(db, teamId, where) : await teamLeadTotal(db, teamId);
      return { total, count: total };
    },

    async metrics(teamId: number, input: MetricsInput) {
      // Clients that leave the period out mean all time (a documented leniency).
      const { from, to } = periodBounds(input);
      const spec = leadFilterSpec(await definitionsOf(teamId), teamId);
      const where = compileSelection(spec, input.filter, 'filter', { emptyMeansAll: true });
      const wantsContacts = input.metrics.some((metric) => CONTACT_METRICS.includes(metric));
      const counts = wantsContacts
        ? await countLeadsForMetrics(db, teamId, where, { from, to })
        : { leads_count: 0, new_leads_count: 0 };
      const total: Record<string, number> = {};
      for (const metric of input.metrics) {
        total[metric] = metric === 'leads_count' || metric === 'new_leads_count' ? counts[metric] : 0;
      }
      return { total };
    },

    async massAction(actor: Actor, body: { type: string; payload?: unknown; filter: unknown }) {
      const action = await prepareMassAction(
        db,
        actor.teamId,
        body.type,
        assertMassActionPayload(body.payload),
      );
      const spec = leadFilterSpec(await definitionsOf(actor.teamId), actor.teamId);
      const where = massActionWhere(spec, body.filter);
      const selected = await countLeads(db, actor.teamId, where);
      if (selected > deps.config.massActionSyncLimit) {
        const operation = await db.transaction().execute((trx) =>
          queueBulkOperation(trx, {
            teamId: actor.teamId,
            userId: actor.userId,
            type: action.type,
            filter: body.filter,
            payload: action.payload,
          }),
        );
        return { queued: true as const, body: { affected: null, operation } };
      }
      const affected = await db.transaction().execute((trx) => action.apply(trx, actor.teamId, where));
      return { queued: false as const, body: { affected, operation: null } };
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;
