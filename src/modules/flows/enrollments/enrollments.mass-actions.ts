// The contact mass actions about flows, added to the contacts' mass actions when this file loads
// (leads/leads.mass-actions.ts, `addContactMassAction`; flows.module.ts imports it): each batch of contacts is one statement - an INSERT ... SELECT of
// enrollments, or one endEnrollments over the batch's live enrollments - so 100,000 contacts are a
// few dozen statements in one background operation.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { invalidField } from '../../../lib/errors.js';
import { isUuid } from '../../../lib/ids.js';
import { contactsWhere, enrollContacts, enrollmentTarget } from '../../enrollments/enroll.js';
import { endEnrollments } from '../../enrollments/enrollment-signals.js';
import { addContactMassAction, type PreparedAction } from '../../leads/leads.mass-actions.js';

function sourceIdOf(payload: Record<string, unknown>): number {
  const raw = payload.contact_source_id;
  if (raw === undefined || raw === null) return 1;
  const value = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > 2_147_483_647) {
    throw invalidField(
      'payload.contact_source_id',
      'payload.contact_source_id must be a contact source id (an integer).',
    );
  }
  return value;
}

const FIELDS = { flow: 'payload.flow_uuid', source: 'payload.contact_source_id' };

/** contact_add_to_flow {flow_uuid, contact_source_id?}: enrolls the selected contacts not yet in the flow. */
export async function prepareAddToFlow(
  db: Executor,
  teamId: number,
  payload: Record<string, unknown>,
): Promise<PreparedAction> {
  if (!isUuid(payload.flow_uuid)) {
    throw invalidField(
      'payload.flow_uuid',
      'payload.flow_uuid (the UUID of the flow to enrol the contacts in) is required.',
    );
  }
  const flowUuid = payload.flow_uuid.toLowerCase();
  const sourceId = sourceIdOf(payload);
  // Checked now for a clear 422; checked again per batch (the flow may be archived meanwhile).
  await enrollmentTarget(db, teamId, flowUuid, sourceId, FIELDS);
  return {
    type: 'contact_add_to_flow',
    payload: { flow_uuid: flowUuid, contact_source_id: sourceId },
    async apply(trx, team, where) {
      const target = await enrollmentTarget(trx, team, flowUuid, sourceId, FIELDS);
      return (await enrollContacts(trx, team, target, 'user', contactsWhere(team, where))).enrolled;
    },
  };
}

/** contact_cancel_from_flows {flow_uuids?}: ends the selected contacts' live enrollments (all flows when none named). */
export async function prepareCancelFromFlows(
  db: Executor,
  teamId: number,
  payload: Record<string, unknown>,
): Promise<PreparedAction> {
  const raw = payload.flow_uuids ?? null;
  if (raw !== null && (!Array.isArray(raw) || raw.some((value) => !isUuid(value)))) {
    throw invalidField(
      'payload.flow_uuids',
      'payload.flow_uuids must be a list of flow UUIDs (or null for every flow).',
    );
  }
  const flows = raw === null ? null : [...new Set((raw as string[]).map((uuid) => uuid.toLowerCase()))];
  if (flows) {
    const { rows } = await sql<{ uuid: string }>`
      select uuid from flows where team_id = ${teamId} and uuid = any(${flows}::uuid[])
    `.execute(db);
    const found = new Set(rows.map((row) => row.uuid));
    const missing = flows.find((uuid) => !found.has(uuid));
    if (missing)
      throw invalidField(
        'payload.flow_uuids',
        `payload.flow_uuids: no flow of yours has the UUID ${missing}.`,
      );
  }
  return {
    type: 'contact_cancel_from_flows',
    payload: { flow_uuids: flows },
    apply: (trx, team, where) => cancelWhere(trx, team, where, flows),
  };
}

async function cancelWhere(
  trx: Executor,
  teamId: number,
  where: RawBuilder<SqlBool>,
  flows: string[] | null,
) {
  // The batch's contacts go in as a parameter: PostgreSQL tests a constant list with a hash, so the
  // statement stays fast whichever index the planner picks (its statistics lag behind a mass action
  // that has just filled the table).
  const { rows } = await sql<{ uuid: string }>`
    select l.uuid from leads l where l.team_id = ${teamId} and ${where}
  `.execute(trx);
  if (rows.length === 0) return 0;
  const leads = rows.map((row) => row.uuid);
  const inFlows = flows ? sql<SqlBool>`fl.flow_uuid = any(${flows}::uuid[])` : sql<SqlBool>`true`;
  return endEnrollments(
    trx,
    teamId,
    { where: sql<SqlBool>`${inFlows} and fl.lead_uuid = any(${leads}::uuid[])` },
    'canceled',
    'canceled',
  );
}

addContactMassAction('contact_add_to_flow', prepareAddToFlow);
addContactMassAction('contact_cancel_from_flows', prepareCancelFromFlows);
