// PUT /leads/api/companies/mass-action: one set-based statement per action over the companies a filter
// selects ({ids}, {all: true} or company filter keys, minus excludeIds). Blacklisted companies are
// always skipped. "affected" counts the companies the action changed, so repeating it reports 0.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { invalidField } from '../../lib/errors.js';
import { and } from '../../lib/filter.js';
import { isUuid } from '../../lib/ids.js';
import { compileCompanyFilter } from './companies.filter.js';
import { requireCompanyStages, resolveTagRefs } from './companies.references.js';
import { deleteCompaniesWhere } from './companies.repository.js';
import type { CompanyMassAction } from './companies.schemas.js';

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

async function updateCount(db: Executor, statement: RawBuilder<unknown>): Promise<number> {
  const result = await statement.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Runs one mass action inside the caller's transaction; returns the number of companies affected. */
export async function runCompanyMassAction(
  db: Executor,
  teamId: number,
  type: CompanyMassAction,
  payload: MassActionPayload,
  filter: Record<string, unknown>,
): Promise<number> {
  const where = await compileMassActionFilter(db, teamId, filter);
  const scope = sql<SqlBool>`c.team_id = ${teamId} and ${where}`;
  switch (type) {
    case 'company_add_tags': {
      const tags = sql`${await payloadTags(db, teamId, payload, 'one')}::uuid[]`;
      return updateCount(
        db,
        sql`update companies c set updated_at = now(),
              tags = array(select x from unnest(c.tags || ${tags}) with ordinality u(x, n) group by x order by min(n))
            where ${scope} and not (c.tags @> ${tags})`,
      );
    }
    case 'company_remove_tags': {
      const tags = sql`${await payloadTags(db, teamId, payload, 'one')}::uuid[]`;
      return updateCount(
        db,
        sql`update companies c set updated_at = now(), tags = array(select x from unnest(c.tags) x where x <> all(${tags}))
            where ${scope} and c.tags && ${tags}`,
      );
    }
    case 'company_replace_tags': {
      const tags = sql`${await payloadTags(db, teamId, payload, 'list')}::uuid[]`;
      return updateCount(
        db,
        sql`update companies c set updated_at = now(), tags = ${tags}
            where ${scope} and not (c.tags @> ${tags} and c.tags <@ ${tags})`,
      );
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
      return updateCount(
        db,
        sql`update companies c set updated_at = now(), pipeline_stage_uuid = ${stage}::uuid
            where ${scope} and c.pipeline_stage_uuid is distinct from ${stage}::uuid`,
      );
    }
    case 'company_delete':
      return deleteCompaniesWhere(db, teamId, where);
  }
}
