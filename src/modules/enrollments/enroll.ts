// Enrollment, the one way contacts enter a flow (model rule 1): one set-based INSERT ... SELECT for any
// number of contacts, used by the single enroll endpoint, add-new-lead, the contact mass action and
// self-filling contact sources. A contact enters a flow at most once, ever (the unique key skips
// contacts already in it); blacklisted contacts never enter.

import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { activityCtes } from '../activities/activities.repository.js';
import { activityColumns, flowActivityPayload } from '../activities/activity-types.js';
import type { FlowStatus } from '../flows/flows.tables.js';
import type { StoredContactSource } from '../flows/versions/tree-validation.js';

export type EnrollmentTarget = {
  flowUuid: string;
  versionUuid: string;
  status: FlowStatus;
  contactSourceId: number;
  /** The node contacts of the source start at. */
  afterId: number;
};

export type AddedBy = 'user' | 'filter' | 'flow';

/**
 * The flow and contact source contacts would enter now. The flow row is share-locked for the rest of
 * the transaction, so a version save (which locks it for update) cannot switch versions in between.
 * `fields` name the request fields in messages.
 */
export async function enrollmentTarget(
  trx: Executor,
  teamId: number,
  flowUuid: string,
  contactSourceId: number,
  fields: { flow?: string; source: string } = { source: 'contact_source_id' },
): Promise<EnrollmentTarget> {
  const flow = await trx
    .selectFrom('flows')
    .select(['uuid', 'status', 'flow_version_uuid'])
    .where('team_id', '=', teamId)
    .where('uuid', '=', flowUuid)
    .forShare()
    .executeTakeFirst();
  if (!flow) {
    if (fields.flow)
      throw invalidField(fields.flow, `${fields.flow} does not name one of your flows (${flowUuid}).`);
    throw notFound('Flow');
  }
  if (flow.status === 'archived') {
    const field = fields.flow ?? 'flow_uuid';
    throw new AppError(
      'validation_error',
      'The flow is archived and takes no contacts; unarchive it first (PUT /flows/api/flows/{uuid}/unarchive).',
      { [field]: ['the flow is archived'] },
    );
  }
  const version = await trx
    .selectFrom('flow_versions')
    .select('contact_sources')
    .where('team_id', '=', teamId)
    .where('uuid', '=', flow.flow_version_uuid)
    .executeTakeFirst();
  const sources = (version?.contact_sources ?? []) as StoredContactSource[];
  const source = sources.find((candidate) => candidate.id === contactSourceId);
  if (!source || source.after_id === null) {
    const ids = sources.map((candidate) => candidate.id).join(', ');
    throw invalidField(
      fields.source,
      `${fields.source}: the flow's active version has no contact source ${contactSourceId} (its contact sources: ${ids}).`,
    );
  }
  return {
    flowUuid: flow.uuid,
    versionUuid: flow.flow_version_uuid,
    status: flow.status,
    contactSourceId,
    afterId: source.after_id,
  };
}

/**
 * Enrolls the contacts `picked` selects (columns `uuid`, `updated_at` and `is_blacklisted` of the team's
 * contacts; blacklisted ones are dropped here) through `target`. Contacts already in the flow are skipped.
 * Returns how many were picked and enrolled, and the last picked contact by uuid and by updated_at
 * (cursors of self-filling sources).
 */
export async function enrollContacts(
  trx: Executor,
  teamId: number,
  target: EnrollmentTarget,
  addedBy: AddedBy,
  picked: RawBuilder<unknown>,
): Promise<{ enrolled: number; picked: number; lastUuid: string | null; lastUpdatedAt: Date | null }> {
  const { rows } = await sql<{
    enrolled: number;
    picked: number;
    last_uuid: string | null;
    last_updated_at: Date | null;
  }>`
    with picked as (${picked}),
    inserted as (
      insert into flow_leads (team_id, uuid, flow_uuid, flow_version_uuid, lead_uuid, contact_source_id,
        added_by, status, flow_node_id, step, next_run_at, flow_active, started_at)
      select ${teamId}, leadflow_uuid_v7(), ${target.flowUuid}, ${target.versionUuid}, p.uuid,
        ${target.contactSourceId}, ${addedBy}, 'in_progress', ${target.afterId}, 0, now(),
        ${target.status === 'on'}, now()
      from picked p
      where not p.is_blacklisted
      on conflict (team_id, flow_uuid, lead_uuid) do nothing
      returning uuid, lead_uuid
    ),
    ${activityCtes(
      teamId,
      sql`(select ${activityColumns({
        objectType: 'lead',
        objectUuid: sql`i.lead_uuid`,
        type: 'flow_enrolled',
        payload: flowActivityPayload({
          flowUuid: sql`${target.flowUuid}::uuid`,
          flowLeadUuid: sql`i.uuid`,
          addedBy: sql`${addedBy}::text`,
        }),
      })} from inserted i)`,
    )}
    select (select count(*) from inserted)::int as enrolled, (select count(*) from picked)::int as picked,
      (select max(uuid::text) from picked)::uuid as last_uuid,
      (select max(updated_at) from picked) as last_updated_at
  `.execute(trx);
  const row = rows[0]!;
  return {
    enrolled: row.enrolled,
    picked: row.picked,
    lastUuid: row.last_uuid,
    lastUpdatedAt: row.last_updated_at,
  };
}

/** The team's contacts matching `where` (alias `l`), as `picked` for enrollContacts. */
export function contactsWhere(teamId: number, where: RawBuilder<SqlBool>): RawBuilder<unknown> {
  return sql`select l.uuid, l.updated_at, l.is_blacklisted from leads l where l.team_id = ${teamId} and ${where}`;
}

/** One contact of the team, as the contacts of enrollContacts. */
export function oneContact(teamId: number, leadUuid: string): RawBuilder<unknown> {
  return contactsWhere(teamId, sql<SqlBool>`l.uuid = ${leadUuid}`);
}
