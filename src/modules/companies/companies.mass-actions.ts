// PUT /leads/api/companies/mass-action: one set-based statement per action over the companies a filter
// selects ({ids}, {all: true} or company filter keys, minus excludeIds). Blacklisted companies are
// always skipped. "affected" counts the companies the action changed, so repeating it reports 0 (and
// a background run that is retried repeats no change). Selections over the synchronous limit run as a
// bulk operation in batches.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, Executor } from '../../db/database.js';
import { invalidField } from '../../lib/errors.js';
import { and } from '../../lib/filter.js';
import { isUuid } from '../../lib/ids.js';
import { activityCtes } from '../activities/activities.repository.js';
import { changeActivitySource } from '../activities/change-activities.js';
import { applyInBatches, type BulkOperationRunner } from '../bulk-operations/bulk-operations.jobs.js';
import { compileCompanyFilter } from './companies.filter.js';
import { requireCompanyStages, resolveTagRefs } from './companies.references.js';
import { deleteCompaniesWhere } from './companies.repository.js';
import { COMPANY_MASS_ACTIONS, type CompanyMassAction } from './companies.schemas.js';

export type MassActionPayload = { tag_uuid?: string; tag_uuids?: string[]; pipeline_stage_uuid?: string };

function uuidList(value: unknown, path: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every(isUuid)) {
    throw invalidField(path, `${path} must be a list of company UUIDs.`);
  }
  return value.map((uuid) => (uuid as string).toLowerCase());
}

/** The companies a mass-action filter selects, as a condition on alias `c`. */
export async function compileMassActionFilter(
  db: Executor,
  teamId: number,
  filter: Record<string, unknown>,
): Promise<RawBuilder<SqlBool>> {
  const { ids, all, excludeIds, exclude_ids, ...rest } = filter;
  if (all !== undefined && typeof all !== 'boolean')
    throw invalidField('filter.all', 'filter.all must be true or false.');
  const included = uuidList(ids, 'filter.ids');
  const excluded = uuidList(excludeIds ?? exclude_ids, 'filter.excludeIds');
  const conditions: RawBuilder<SqlBool>[] = [sql<SqlBool>`not c.is_blacklisted`];
  const keys = await compileCompanyFilter(db, teamId, rest, 'filter');
  if (keys) conditions.push(keys);
  if (all !== true) {
    if (included) conditions.push(sql<SqlBool>`c.uuid = any(${included}::uuid[])`);
    else if (!keys) {
      throw invalidField(
        'filter',
        'filter must say which companies: {"ids": [...]}, {"all": true} or company filter keys (e.g. {"tags": [...]}).',
      );
    }
  }
  if (excluded && excluded.length > 0) conditions.push(sql<SqlBool>`not (c.uuid = any(${excluded}::uuid[]))`);
  return and(conditions)!;
}

async function payloadTags(
  db: Executor,
  teamId: number,
  payload: MassActionPayload,
  required: 'one' | 'list',
): Promise<string[]> {
  const given = [...(payload.tag_uuid ? [payload.tag_uuid] : []), ...(payload.tag_uuids ?? [])].map((uuid) =>
    uuid.toLowerCase(),
  );
  if (required === 'one' && given.length === 0) {
    throw invalidField('payload.tag_uuids', 'payload needs tag_uuid or tag_uuids (tag UUIDs of your team).');
  }
  if (required === 'list' && payload.tag_uuids === undefined && payload.tag_uuid === undefined) {
    throw invalidField(
      'payload.tag_uuids',
      'payload.tag_uuids is required (an empty list removes every tag).',
    );
  }
  const [resolved] = await resolveTagRefs(db, teamId, [given], () => 'payload.tag_uuids');
  return resolved!;
}

export type PreparedCompanyAction = {
  type: CompanyMassAction;
  /** The payload with everything resolved; stored on background operations. */
  payload: MassActionPayload;
  /** Runs the action on the team's companies matching `where` (alias `c`); returns companies changed. */
  apply(trx: Executor, where: RawBuilder<SqlBool>): Promise<number>;
};

/** Validates the payload of `type` against the team's records and returns the runnable action. */
export async function prepareCompanyMassAction(
  db: Executor,
  teamId: number,
  type: CompanyMassAction,
  payload: MassActionPayload,
): Promise<PreparedCompanyAction> {
  // One statement changes the companies and records their activities (tags_added/_removed,
  // pipeline_stage_changed) from each company's values before and after.
  const update =
    (set: RawBuilder<unknown>, unchanged: RawBuilder<SqlBool>, field: 'tags' | 'stage') =>
    async (trx: Executor, where: RawBuilder<SqlBool>) => {
      const { rows } = await sql<{ n: number }>`
        with o as (
          select c.uuid, c.pipeline_stage_uuid, c.tags from companies c
          where c.team_id = ${teamId} and ${where} and not (${unchanged}) for update
        ),
        changed as (
          update companies c set updated_at = now(), ${set} from o
          where c.team_id = ${teamId} and c.uuid = o.uuid
          returning c.uuid, null::uuid as company_uuid, o.pipeline_stage_uuid as old_stage_uuid,
            c.pipeline_stage_uuid, o.tags as old_tags, c.tags
        ),
        ${activityCtes(teamId, changeActivitySource('company', field))}
        select count(*)::int as n from changed
      `.execute(trx);
      return rows[0]?.n ?? 0;
    };
  switch (type) {
    case 'company_add_tags': {
      const uuids = await payloadTags(db, teamId, payload, 'one');
      const tags = sql`${uuids}::uuid[]`;
      return {
        type,
        payload: { tag_uuids: uuids },
        apply: update(
          sql`tags = array(select x from unnest(c.tags || ${tags}) with ordinality u(x, n) group by x order by min(n))`,
          sql<SqlBool>`c.tags @> ${tags}`,
          'tags',
        ),
      };
    }
    case 'company_remove_tags': {
      const uuids = await payloadTags(db, teamId, payload, 'one');
      const tags = sql`${uuids}::uuid[]`;
      return {
        type,
        payload: { tag_uuids: uuids },
        apply: update(
          sql`tags = array(select x from unnest(c.tags) x where x <> all(${tags}))`,
          sql<SqlBool>`not (c.tags && ${tags})`,
          'tags',
        ),
      };
    }
    case 'company_replace_tags': {
      const uuids = await payloadTags(db, teamId, payload, 'list');
      const tags = sql`${uuids}::uuid[]`;
      return {
        type,
        payload: { tag_uuids: uuids },
        apply: update(sql`tags = ${tags}`, sql<SqlBool>`c.tags @> ${tags} and c.tags <@ ${tags}`, 'tags'),
      };
    }
    case 'company_change_pipeline_stage': {
      const stage = payload.pipeline_stage_uuid?.toLowerCase();
      if (!stage) {
        throw invalidField(
          'payload.pipeline_stage_uuid',
          'payload.pipeline_stage_uuid is required (a company stage).',
        );
      }
      await requireCompanyStages(db, teamId, [stage], () => 'payload.pipeline_stage_uuid');
      return {
        type,
        payload: { pipeline_stage_uuid: stage },
        apply: update(
          sql`pipeline_stage_uuid = ${stage}::uuid`,
          sql<SqlBool>`c.pipeline_stage_uuid is not distinct from ${stage}::uuid`,
          'stage',
        ),
      };
    }
    case 'company_delete':
      return { type, payload: {}, apply: (trx, where) => deleteCompaniesWhere(trx, teamId, where) };
  }
}

/**
 * Runs stored company mass actions in batches of companies (bulk-operations' applyInBatches), at most
 * 5,000 per batch and never more than a request may change synchronously.
 */
export function companyMassActionRunner(deps: {
  db: Database;
  config: Pick<Config, 'massActionSyncLimit'>;
}): BulkOperationRunner {
  const batchSize = Math.min(5000, deps.config.massActionSyncLimit);
  return {
    types: COMPANY_MASS_ACTIONS,
    async run(operation, progress) {
      const teamId = operation.team_id;
      const type = operation.type as CompanyMassAction;
      const action = await prepareCompanyMassAction(
        deps.db,
        teamId,
        type,
        (operation.payload ?? {}) as MassActionPayload,
      );
      const filter = (operation.filter ?? {}) as Record<string, unknown>;
      const where = await compileMassActionFilter(deps.db, teamId, filter);
      await applyInBatches(
        deps.db,
        { table: 'companies', alias: 'c', teamId, where },
        batchSize,
        action.apply,
        progress,
      );
    },
  };
}
