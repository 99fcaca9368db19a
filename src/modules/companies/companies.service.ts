import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import { constraintOf } from '../../db/citus.js';
import type { Database, Executor } from '../../db/database.js';
import { AppError, conflict, invalidField, notFound } from '../../lib/errors.js';
import { filterError } from '../../lib/filter.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { recordActivities } from '../activities/activities.repository.js';
import { changeActivities } from '../activities/change-activities.js';
import { refreshCompanyBlacklistFlags } from '../blacklists/blacklist-match.js';
import { queueBulkOperation } from '../bulk-operations/bulk-operations.jobs.js';
import { resolveCustomFieldInput } from '../custom-fields/custom-field-values.js';
import { selectCustomFieldDefinitions } from '../custom-fields/custom-fields.repository.js';
import { linkLeadsToCompanies } from '../leads/company-links.js';
import { type LeadRow, type PresentedLead, presentLead } from '../leads/leads.present.js';
import { selectInitialStageUuid } from '../pipeline-stages/pipeline-stages.defaults.js';
import { companySort, compileCompanyFilter } from './companies.filter.js';
import {
  type CompanyInputBody,
  type CompanyPatchBody,
  collapseBatch,
  normalizeCompanyInput,
  normalizeCompanyPatch,
  normalizeLookupCriterion,
} from './companies.input.js';
import { toCompany } from './companies.mapper.js';
import {
  compileMassActionFilter,
  type MassActionPayload,
  prepareCompanyMassAction,
} from './companies.mass-actions.js';
import {
  requireCompanyStages,
  requireDataSource,
  requireTeamLists,
  resolveTagRefs,
} from './companies.references.js';
import * as repo from './companies.repository.js';
import type { CompanyMassAction, LookupBody } from './companies.schemas.js';
import { type UpsertRow, upsertCompanies } from './companies.upsert.js';

type Actor = { teamId: number; userId: number | null };
type CreateBody = { companies: CompanyInputBody[]; list_uuids?: string[]; data_source_uuid?: string | null };

const UNIQUE_FIELDS: Record<string, 'ln_id' | 'linkedin' | 'domain' | 'name'> = {
  companies_team_ln_id_key: 'ln_id',
  companies_team_linkedin_key: 'linkedin',
  companies_team_domain_key: 'domain',
  companies_team_name_only_key: 'name',
};
// Lost races (deadlocks, a concurrent insert of the same identifier) are retried a few times.
const RETRYABLE = new Set(['40P01', '40001', '23505']);
const lower = (uuids: string[]) => [...new Set(uuids.map((uuid) => uuid.toLowerCase()))];

/**
 * `filter.all: true` means every company, as in exports and mass actions; a list without a filter shows
 * every company anyway, so here it only has to be accepted (other keys still narrow).
 */
function withoutAll(filter: unknown): unknown {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter) || !('all' in filter))
    return filter;
  const { all, ...rest } = filter as Record<string, unknown>;
  // A GET list sends it as text (?filter[all]=true).
  if (![true, false, 'true', 'false'].includes(all as string)) {
    throw filterError('filter.all', 'filter.all must be true or false');
  }
  return rest;
}

export function createCompaniesService(deps: { db: Database; config: Pick<Config, 'massActionSyncLimit'> }) {
  const { db } = deps;

  const definitionsOf = (executor: Executor, teamId: number) =>
    selectCustomFieldDefinitions(executor, teamId, 'company');

  async function retrying<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().execute(work);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= 3 || !code || !RETRYABLE.has(code)) throw error;
      }
    }
  }

  /** After companies are written: their blacklist flag, and unlinked contacts that match them. */
  async function afterWrite(trx: Executor, teamId: number, uuids: string[]) {
    await refreshCompanyBlacklistFlags(trx, teamId, { uuids });
    await linkLeadsToCompanies(trx, teamId, { companyUuids: uuids });
  }

  async function getCompany(teamId: number, uuid: string) {
    const [row, definitions] = await Promise.all([
      repo.selectCompany(db, teamId, uuid),
      definitionsOf(db, teamId),
    ]);
    if (!row) throw notFound('Company');
    return toCompany(row, definitions);
  }

  return {
    getCompany,

    async listCompanies(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, companySort);
      const where = await compileCompanyFilter(db, teamId, withoutAll(params.filter));
      const [{ rows, total }, definitions] = await Promise.all([
        repo.selectCompanyPage(db, teamId, where, page),
        definitionsOf(db, teamId),
      ]);
      return envelope(
        rows.map((row) => toCompany(row, definitions)),
        total,
        page,
      );
    },

    /** Creates companies, or updates the stored ones they match (see CreateCompaniesBody). */
    async createCompanies(actor: Actor, body: CreateBody) {
      const { teamId } = actor;
      const inputs = body.companies.map((input, index) => normalizeCompanyInput(input, `companies.${index}`));
      const listUuids = lower(body.list_uuids ?? []);
      return retrying(async (trx) => {
        const definitions = await definitionsOf(trx, teamId);
        await requireTeamLists(trx, teamId, listUuids, 'list_uuids');
        await requireDataSource(trx, teamId, body.data_source_uuid);
        const tags = await resolveTagRefs(
          trx,
          teamId,
          inputs.map((input) => input.tagRefs),
          (index) => `companies.${index}.tags`,
        );
        inputs.forEach((input, index) => {
          input.tags = tags[index]!;
          input.pipeline_stage_uuid = input.pipeline_stage_uuid?.toLowerCase() ?? null;
          if (input.customFieldInput) {
            input.custom_fields = resolveCustomFieldInput(
              definitions,
              input.customFieldInput,
              `companies.${index}.custom_fields`,
            );
          }
        });
        await requireCompanyStages(
          trx,
          teamId,
          inputs.map((input) => input.pipeline_stage_uuid),
          (index) => `companies.${index}.pipeline_stage_uuid`,
        );
        const { companies, groupOf } = collapseBatch(inputs);
        const rows: UpsertRow[] = companies.map((company, ord) => ({ ...company, uuid: newId(), ord }));
        const context = {
          teamId,
          userId: actor.userId,
          initialStageUuid: await selectInitialStageUuid(trx, teamId, 'company'),
          listUuids,
          dataSourceUuid: body.data_source_uuid?.toLowerCase() ?? null,
        };
        const resolved = new Map<string, string>();
        let pending = rows;
        for (let round = 0; round < 3 && pending.length > 0; round++) {
          for (const [input, company] of await upsertCompanies(trx, context, pending))
            resolved.set(input, company);
          pending = pending.filter((row) => !resolved.has(row.uuid));
        }
        if (pending.length > 0) {
          throw conflict('Companies were changed concurrently; retry the request.', {
            companies: [`${pending.length} companies could not be written`],
          });
        }
        const uuids = [...new Set(resolved.values())];
        await afterWrite(trx, teamId, uuids);
        const stored = new Map(
          (await repo.selectCompaniesByUuids(trx, teamId, uuids)).map((row) => [row.uuid, row]),
        );
        return groupOf.map((group) => toCompany(stored.get(resolved.get(rows[group]!.uuid)!)!, definitions));
      });
    },

    async updateCompany(teamId: number, uuid: string, body: CompanyPatchBody) {
      const values = normalizeCompanyPatch(body);
      if (body.custom_fields) {
        // Merged into the stored values in SQL: given values overwrite, null removes the field's value.
        const resolved = resolveCustomFieldInput(
          await selectCustomFieldDefinitions(db, teamId, 'company'),
          body.custom_fields,
          'custom_fields',
        );
        const set = Object.fromEntries(Object.entries(resolved).filter(([, value]) => value !== null));
        const cleared = Object.keys(resolved).filter((uuid) => resolved[uuid] === null);
        values.custom_fields = repo.mergedCustomFields(set, cleared);
      }
      try {
        await db.transaction().execute(async (trx) => {
          const stage = (body.pipeline_stage_uuid ?? body.lead_status_uuid)?.toLowerCase();
          if (stage) {
            const field = body.pipeline_stage_uuid ? 'pipeline_stage_uuid' : 'lead_status_uuid';
            await requireCompanyStages(trx, teamId, [stage], () => field);
            values.pipeline_stage_uuid = stage;
          }
          await requireDataSource(trx, teamId, body.data_source_uuid);
          if (body.tags) values.tags = (await resolveTagRefs(trx, teamId, [body.tags], () => 'tags'))[0];
          if (body.lists) {
            values.lists = lower(body.lists);
            await requireTeamLists(trx, teamId, values.lists as string[], 'lists');
          }
          if (values.hq_location !== undefined) {
            values.hq_location = values.hq_location === null ? null : JSON.stringify(values.hq_location);
          }
          values.updated_at = new Date();
          const before = await repo.selectCompany(trx, teamId, uuid);
          const row = await repo.updateCompanyRow(trx, teamId, uuid, values);
          if (!row || !before) throw notFound('Company');
          const changes = {
            ...(row.pipeline_stage_uuid !== before.pipeline_stage_uuid && row.pipeline_stage_uuid
              ? { pipeline_stage_uuid: row.pipeline_stage_uuid }
              : {}),
            ...(values.tags ? { tags: row.tags } : {}),
          };
          await recordActivities(
            trx,
            teamId,
            changeActivities(before, changes).map((activity) => ({
              ...activity,
              objectType: 'company' as const,
              objectUuid: uuid,
            })),
          );
          if (row.name === null && row.ln_id === null && row.linkedin === null && row.domain === null) {
            throw invalidField(
              'name',
              'A company needs at least one of name, domain, linkedin or ln_id; this update would clear the last one.',
            );
          }
          await afterWrite(trx, teamId, [uuid]);
        });
      } catch (error) {
        throw await duplicateKeyError(error, teamId, uuid, values);
      }
      return getCompany(teamId, uuid);
    },

    async deleteCompany(teamId: number, uuid: string) {
      const deleted = await db.transaction().execute((trx) => repo.deleteCompany(trx, teamId, uuid));
      if (deleted === 0) throw notFound('Company');
    },

    async lookupCompanies(teamId: number, body: Static<typeof LookupBody>) {
      const key = body.lookups ? 'lookups' : 'companies';
      const criteria = body.lookups ?? body.companies;
      if (!criteria) {
        throw invalidField(
          'lookups',
          'lookups is required: an array of {ln_id, linkedin, website, domain, name}.',
        );
      }
      const keys = criteria.map((criterion, index) => normalizeLookupCriterion(criterion, `${key}.${index}`));
      const [rows, definitions] = await Promise.all([
        repo.lookupCompanies(db, teamId, keys),
        definitionsOf(db, teamId),
      ]);
      return rows.map((row) => (row ? toCompany(row, definitions) : null));
    },

    async contactsOfCompanies(teamId: number, uuids: string[]) {
      const [rows, definitions] = await Promise.all([
        repo.selectContactsOfCompanies(db, teamId, lower(uuids)),
        selectCustomFieldDefinitions(db, teamId, 'lead'),
      ]);
      const result: Record<string, PresentedLead[]> = {};
      for (const { owner_uuid, ...contact } of rows) {
        result[owner_uuid] ??= [];
        // A company without contacts comes back once, with the contact columns null.
        if (contact.uuid !== null) result[owner_uuid].push(presentLead(contact as LeadRow, definitions));
      }
      return result;
    },

    /**
     * Up to the synchronous limit the action runs in the request; above it a bulk operation is
     * queued and returned (202), as for contact mass actions.
     */
    async massAction(
      actor: { teamId: number; userId: number },
      body: { type: CompanyMassAction; payload?: MassActionPayload | null; filter: Record<string, unknown> },
    ) {
      const { teamId } = actor;
      const action = await prepareCompanyMassAction(db, teamId, body.type, body.payload ?? {});
      const where = await compileMassActionFilter(db, teamId, body.filter);
      const selected = await repo.countCompaniesWhere(db, teamId, where);
      if (selected > deps.config.massActionSyncLimit) {
        const operation = await db.transaction().execute((trx) =>
          queueBulkOperation(trx, {
            teamId,
            userId: actor.userId,
            type: action.type,
            filter: body.filter,
            payload: action.payload,
          }),
        );
        return { queued: true as const, body: { affected: null, operation } };
      }
      const affected = await db.transaction().execute((trx) => action.apply(trx, where));
      return { queued: false as const, body: { affected, operation: null } };
    },
  };

  /** A unique violation on an identifier → 409 naming the field and the company that holds the value. */
  async function duplicateKeyError(
    error: unknown,
    teamId: number,
    uuid: string,
    values: Record<string, unknown>,
  ) {
    const code = (error as { code?: string }).code;
    const field = code === '23505' ? UNIQUE_FIELDS[constraintOf(error) ?? ''] : undefined;
    if (!field) return error;
    const value = values[field] ?? (await repo.selectCompany(db, teamId, uuid))?.[field];
    const holder = await repo.selectCompanyHolding(db, teamId, field, value, uuid);
    const message =
      field === 'name'
        ? `Another company of your team named "${String(value)}" has no LinkedIn or domain either; give this one an identifier or merge them.`
        : `Another company of your team already has ${field} ${String(value)}.`;
    return new AppError('conflict', message, {
      [field]: [message],
      ...(holder ? { company_uuid: holder } : {}),
    });
  }
}

export type CompaniesService = ReturnType<typeof createCompaniesService>;
