// Contact mass actions: each is one set-based statement over the selected contacts (blacklisted ones
// are always skipped, spec 2.22). A statement only touches contacts it actually changes, so `affected`
// counts real changes and re-running an action is harmless (the background runner relies on that).
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, Executor } from '../../db/database.js';
import { AppError, invalidField } from '../../lib/errors.js';
import type { FilterSpec } from '../../lib/filter.js';
import { isUuid } from '../../lib/ids.js';
import { applyInBatches, type BulkOperationRunner } from '../bulk-operations/bulk-operations.jobs.js';
import { coerceCustomFieldValue } from '../custom-fields/custom-field-values.js';
import { selectCustomFieldDefinitions } from '../custom-fields/custom-fields.repository.js';
import { markContactsRead } from '../read-state/read-state.repository.js';
import { selectExistingTagUuids } from '../tags/tags.repository.js';
import { deleteLeadsWhere } from './lead-deletion.js';
import { loadLeadFilterSpec } from './leads.filter.js';
import { teamScope } from './leads.query.js';
import { requireLeadStage, requireList } from './leads.references.js';
import { compileSelection } from './leads.selection.js';
import { type ChangeOrigin, updateContactsTracked } from './leads.tracked-update.js';

export const MASS_ACTION_TYPES = [
  'contact_add_tags',
  'contact_remove_tags',
  'contact_replace_tags',
  'contact_change_list',
  'contact_change_pipeline_stage',
  'contact_change_custom_field',
  'contact_delete',
  'contact_add_to_flow',
  'contact_cancel_from_flows',
  'contact_mark_read',
] as const;

export type MassActionType = (typeof MASS_ACTION_TYPES)[number];

export type PreparedAction = {
  type: MassActionType;
  /** The payload with everything resolved; stored on background operations. */
  payload: Record<string, unknown>;
  /**
   * Runs the action on the team's contacts matching `where` (alias `l`); returns contacts changed.
   * `origin` (a flow's node) is recorded on the activities of the change.
   */
  apply(trx: Executor, teamId: number, where: RawBuilder<SqlBool>, origin?: ChangeOrigin): Promise<number>;
};

/** Prepares a mass action of another module (its payload checked, its statement ready to run). */
export type MassActionPreparer = (
  db: Executor,
  teamId: number,
  payload: Record<string, unknown>,
) => Promise<PreparedAction>;

/**
 * Mass actions other modules add to the contacts' (the flows module: contact_add_to_flow,
 * contact_cancel_from_flows), so this module knows nothing of them. Registered when the adding module
 * loads; an unregistered type answers "Unknown mass action type".
 */
const addedMassActions = new Map<MassActionType, MassActionPreparer>();

export function addContactMassAction(type: MassActionType, prepare: MassActionPreparer): void {
  addedMassActions.set(type, prepare);
}

async function tagUuids(db: Executor, teamId: number, payload: Record<string, unknown>): Promise<string[]> {
  const field = payload.tag_uuids !== undefined ? 'payload.tag_uuids' : 'payload.tag_uuid';
  const raw = payload.tag_uuids ?? (payload.tag_uuid === undefined ? undefined : [payload.tag_uuid]);
  if (!Array.isArray(raw) || raw.some((value) => !isUuid(value))) {
    throw invalidField(
      field,
      'payload.tag_uuid (a tag UUID) or payload.tag_uuids (a list of tag UUIDs) is required.',
    );
  }
  const uuids = [...new Set(raw.map((value: string) => value.toLowerCase()))];
  const existing = await selectExistingTagUuids(db, teamId, uuids);
  const missing = uuids.filter((uuid) => !existing.has(uuid));
  if (missing.length > 0)
    throw invalidField(field, `${field}: no tag of yours has the UUID ${missing.join(', ')}.`);
  return uuids;
}

function requiredUuid(payload: Record<string, unknown>, key: string): string {
  const value = payload[key];
  if (!isUuid(value)) throw invalidField(`payload.${key}`, `payload.${key} (a UUID) is required.`);
  return value.toLowerCase();
}

async function update(trx: Executor, teamId: number, where: RawBuilder<SqlBool>, set: RawBuilder<unknown>) {
  const result =
    await sql`update leads l set ${set}, updated_at = now() where ${teamScope(teamId, where)}`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/** Moves the selected contacts to a list or stage; those already there are not touched (or counted). */
function setReference(column: 'list_uuid' | 'pipeline_stage_uuid', uuid: string): PreparedAction['apply'] {
  return (trx, team, where, origin) =>
    updateContactsTracked(
      trx,
      team,
      sql<SqlBool>`${where} and ${sql.ref(`l.${column}`)} <> ${uuid}::uuid`,
      sql`${sql.ref(column)} = ${uuid}::uuid`,
      column === 'list_uuid' ? 'list' : 'stage',
      origin,
    );
}

/** Validates the payload of `type` against the team's records and returns the runnable action. */
export async function prepareMassAction(
  db: Executor,
  teamId: number,
  type: string,
  payload: Record<string, unknown>,
): Promise<PreparedAction> {
  switch (type) {
    case 'contact_add_tags': {
      const tags = await tagUuids(db, teamId, payload);
      return {
        type,
        payload: { tag_uuids: tags },
        apply: (trx, team, where, origin) =>
          updateContactsTracked(
            trx,
            team,
            sql<SqlBool>`${where} and not (l.tags @> ${tags}::uuid[])`,
            sql`tags = l.tags || array(select unnest(${tags}::uuid[]) except select unnest(l.tags))`,
            'tags',
            origin,
          ),
      };
    }
    case 'contact_remove_tags': {
      const tags = await tagUuids(db, teamId, payload);
      return {
        type,
        payload: { tag_uuids: tags },
        apply: (trx, team, where, origin) =>
          updateContactsTracked(
            trx,
            team,
            sql<SqlBool>`${where} and l.tags && ${tags}::uuid[]`,
            sql`tags = array(select t from unnest(l.tags) with ordinality u(t, n) where t <> all(${tags}::uuid[]) order by n)`,
            'tags',
            origin,
          ),
      };
    }
    case 'contact_replace_tags': {
      const tags = await tagUuids(db, teamId, payload);
      return {
        type,
        payload: { tag_uuids: tags },
        apply: (trx, team, where, origin) =>
          updateContactsTracked(
            trx,
            team,
            sql<SqlBool>`${where} and not (l.tags @> ${tags}::uuid[] and l.tags <@ ${tags}::uuid[])`,
            sql`tags = ${tags}::uuid[]`,
            'tags',
            origin,
          ),
      };
    }
    case 'contact_change_list': {
      const list = requiredUuid(payload, 'list_uuid');
      await requireList(db, teamId, list, 'payload.list_uuid');
      return {
        type,
        payload: { list_uuid: list },
        apply: setReference('list_uuid', list),
      };
    }
    case 'contact_change_pipeline_stage': {
      const stage = requiredUuid(payload, 'pipeline_stage_uuid');
      await requireLeadStage(db, teamId, stage, 'payload.pipeline_stage_uuid');
      return {
        type,
        payload: { pipeline_stage_uuid: stage },
        apply: setReference('pipeline_stage_uuid', stage),
      };
    }
    case 'contact_change_custom_field': {
      const fieldUuid = requiredUuid(payload, 'custom_field_uuid');
      const definition = (await selectCustomFieldDefinitions(db, teamId, 'lead')).find(
        (d) => d.uuid === fieldUuid,
      );
      if (!definition) {
        throw invalidField(
          'payload.custom_field_uuid',
          'payload.custom_field_uuid does not name one of your contact custom fields.',
        );
      }
      if (!Object.hasOwn(payload, 'value')) {
        throw invalidField('payload.value', 'payload.value is required (null clears the field).');
      }
      const value = coerceCustomFieldValue(definition, payload.value, 'payload.value');
      const entry = JSON.stringify({ [fieldUuid]: value });
      return {
        type,
        payload: { custom_field_uuid: fieldUuid, value },
        apply: (trx, team, where) =>
          value === null
            ? update(
                trx,
                team,
                sql<SqlBool>`${where} and l.custom_fields ? ${fieldUuid}`,
                sql`custom_fields = l.custom_fields - ${fieldUuid}`,
              )
            : update(
                trx,
                team,
                sql<SqlBool>`${where} and not (l.custom_fields @> ${entry}::jsonb)`,
                sql`custom_fields = l.custom_fields || ${entry}::jsonb`,
              ),
      };
    }
    case 'contact_delete':
      return { type, payload: {}, apply: (trx, team, where) => deleteLeadsWhere(trx, team, where) };
    case 'contact_mark_read':
      return { type, payload: {}, apply: (trx, team, where) => markContactsRead(trx, team, where) };
    default: {
      const added = addedMassActions.get(type as MassActionType);
      if (added) return added(db, teamId, payload);
      throw invalidField(
        'type',
        `Unknown mass action type "${type}". Types: ${MASS_ACTION_TYPES.join(', ')}.`,
      );
    }
  }
}

/** The selection of a mass action, minus blacklisted contacts. */
export function massActionWhere(spec: FilterSpec, selection: unknown): RawBuilder<SqlBool> {
  const selected = compileSelection(spec, selection);
  const notBlacklisted = sql<SqlBool>`not l.is_blacklisted`;
  return selected ? sql<SqlBool>`${selected} and ${notBlacklisted}` : notBlacklisted;
}

/**
 * Runs stored contact mass actions in batches of contacts (bulk-operations' applyInBatches). A batch is
 * never larger than what a request may change synchronously (and at most 5,000 contacts), which keeps
 * row locks short.
 */
export function leadMassActionRunner(deps: {
  db: Database;
  config: Pick<Config, 'massActionSyncLimit'>;
}): BulkOperationRunner {
  const batchSize = Math.min(5000, deps.config.massActionSyncLimit);
  return {
    types: MASS_ACTION_TYPES,
    async run(operation, progress) {
      const teamId = operation.team_id;
      const payload = (operation.payload ?? {}) as Record<string, unknown>;
      const action = await prepareMassAction(deps.db, teamId, operation.type, payload);
      const where = massActionWhere(await loadLeadFilterSpec(deps.db, teamId), operation.filter);
      await applyInBatches(
        deps.db,
        { table: 'leads', alias: 'l', teamId, where },
        batchSize,
        (trx, batch) => action.apply(trx, teamId, batch),
        progress,
      );
    },
  };
}

export function assertMassActionPayload(payload: unknown): Record<string, unknown> {
  if (payload === undefined || payload === null) return {};
  if (typeof payload !== 'object' || Array.isArray(payload)) {
    throw new AppError('validation_error', 'payload must be an object.', { payload: ['must be an object'] });
  }
  return payload as Record<string, unknown>;
}
