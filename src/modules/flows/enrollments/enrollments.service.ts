// Enrollments through the API: list, enroll one contact (existing or new), move one to another flow,
// cancel, and delete a contact's enrollment history. Every end goes through endEnrollments (model rule 3),
// every entry through enrollContacts (rule 1).
import type { Database } from '../../../db/database.js';
import { AppError, conflict, invalidField, notFound } from '../../../lib/errors.js';
import { envelope, resolvePage } from '../../../lib/pagination.js';
import { selectCustomFieldDefinitions } from '../../custom-fields/custom-fields.repository.js';
import { enrollContacts, enrollmentTarget, oneContact } from '../../enrollments/enroll.js';
import { endEnrollments } from '../../enrollments/enrollment-signals.js';
import { type Actor, upsertLead } from '../../leads/leads.write.js';
import { selectFlowUuids } from '../flows.repository.js';
import * as repo from './enrollments.repository.js';
import type { AddNewLeadBody, ListEnrollmentsBody, MoveBody } from './enrollments.schemas.js';

const asList = <T>(value: T | T[] | undefined): T[] | undefined =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** `"1"` and `1` both name contact source 1 (n8n sends the id as text). */
export function contactSourceIdOf(value: number | string | undefined): number {
  return value === undefined ? 1 : Number(value);
}

export function createEnrollmentsService(deps: { db: Database }) {
  const { db } = deps;

  async function requireLead(teamId: number, leadUuid: string) {
    const lead = await repo.selectLeadState(db, teamId, leadUuid);
    if (!lead) throw notFound('Contact');
    return lead;
  }

  /** Enrolls one contact in the transaction; 409 when it is (or was) in the flow already. */
  async function enrolOne(
    trx: Parameters<typeof enrollmentTarget>[0],
    teamId: number,
    flowUuid: string,
    leadUuid: string,
    contactSourceId: number,
    fields: { flow?: string; source: string },
  ) {
    const target = await enrollmentTarget(trx, teamId, flowUuid, contactSourceId, fields);
    const { enrolled } = await enrollContacts(trx, teamId, target, 'user', oneContact(teamId, leadUuid));
    if (enrolled === 1) return;
    const existing = await repo.selectEnrollmentOf(trx, teamId, flowUuid, leadUuid);
    if (existing) {
      throw conflict(
        `This contact is already enrolled in the flow (enrollment ${existing.uuid}, status ${existing.status}); a contact enters a flow once.`,
        { enrollment_uuid: existing.uuid },
      );
    }
    throw new AppError(
      'validation_error',
      'This contact is blacklisted; blacklisted contacts are never enrolled.',
      {
        lead_uuid: ['the contact is blacklisted'],
      },
    );
  }

  return {
    async listEnrollments(teamId: number, body: ListEnrollmentsBody) {
      const page = resolvePage(body, repo.enrollmentSort);
      const filter: repo.EnrollmentFilter = {
        flows: asList(body.filter?.flow_uuid)?.map((uuid) => uuid.toLowerCase()),
        leads: asList(body.filter?.lead_uuid)?.map((uuid) => uuid.toLowerCase()),
        statuses: asList(body.filter?.status),
      };
      const [rows, total] = await Promise.all([
        repo.selectEnrollmentPage(db, teamId, filter, page),
        repo.countEnrollments(db, teamId, filter),
      ]);
      return envelope(rows, total, page);
    },

    /** Enrolls an existing contact from the start of a contact source (draft and off flows too). */
    async enroll(teamId: number, flowUuid: string, leadUuid: string, contactSourceId: number) {
      const lead = await requireLead(teamId, leadUuid);
      if (lead.is_blacklisted) {
        throw new AppError(
          'validation_error',
          'This contact is blacklisted; blacklisted contacts are never enrolled.',
          {
            lead_uuid: ['the contact is blacklisted'],
          },
        );
      }
      await db
        .transaction()
        .execute((trx) =>
          enrolOne(trx, teamId, flowUuid, leadUuid, contactSourceId, { source: 'contact_source_id' }),
        );
    },

    /**
     * Creates (or finds, deduplicated like upsert) a contact and enrolls it, in one transaction. Answers
     * `skipped` when skip_if_lead_exists and the contact existed.
     */
    async addNewLead(actor: Actor, flowUuid: string, body: AddNewLeadBody): Promise<{ skipped: boolean }> {
      const sourceId = contactSourceIdOf(body.flow_segment_id);
      // The flow is checked first, so a bad flow or source creates no contact.
      await db
        .transaction()
        .execute((trx) =>
          enrollmentTarget(trx, actor.teamId, flowUuid, sourceId, { source: 'flow_segment_id' }),
        );
      const definitions = await selectCustomFieldDefinitions(db, actor.teamId, 'lead');
      const result = await upsertLead(
        db,
        actor,
        definitions,
        {
          lead: body.lead,
          ...(body.custom_fields ? { custom_fields: body.custom_fields } : {}),
          list_uuid: body.list_uuid,
          update_if_exists: body.update_lead_if_exists ?? true,
          move_to_list: body.move_to_list ?? false,
        },
        {
          skipIfExists: body.skip_if_lead_exists ?? false,
          afterWrite: async (trx, row) => {
            if (row.is_blacklisted) {
              throw new AppError(
                'validation_error',
                'The contact is blacklisted; blacklisted contacts are never enrolled.',
                { lead: ['the contact is blacklisted'] },
              );
            }
            await enrolOne(trx, actor.teamId, flowUuid, row.uuid, sourceId, { source: 'flow_segment_id' });
          },
        },
      );
      return { skipped: result.skipped === true };
    },

    /** Ends the contact's live enrollments in the named flows (canceled, reason canceled). */
    async cancel(teamId: number, leadUuid: string, flowUuids: string[]) {
      await requireLead(teamId, leadUuid);
      const wanted = flowUuids.map((uuid) => uuid.toLowerCase());
      const found = new Set(await selectFlowUuids(db, teamId, wanted));
      const missing = wanted.findIndex((uuid) => !found.has(uuid));
      if (missing >= 0) {
        throw invalidField(
          `flow_uuids.${missing}`,
          `flow_uuids.${missing}: no flow of yours has the UUID ${flowUuids[missing]}.`,
        );
      }
      await db
        .transaction()
        .execute((trx) =>
          endEnrollments(trx, teamId, { leadUuid, flowUuids: wanted }, 'canceled', 'canceled'),
        );
    },

    /**
     * Moves a contact that is in `flowUuid` to another flow in one transaction: its enrollment here ends
     * (canceled, reason moved; pending tasks canceled) and it starts the other flow at the entry of
     * `contact_source_id`. When the other flow refuses it (archived, the contact was in it, blacklisted),
     * nothing changes.
     */
    async move(teamId: number, flowUuid: string, leadUuid: string, body: MoveBody) {
      await requireLead(teamId, leadUuid);
      const from = flowUuid.toLowerCase();
      const to = body.to_flow_uuid.toLowerCase();
      if ((await selectFlowUuids(db, teamId, [from])).length === 0) throw notFound('Flow');
      if (to === from) {
        throw invalidField('to_flow_uuid', 'to_flow_uuid: the contact is in this flow; name another flow.');
      }
      await db.transaction().execute(async (trx) => {
        const ended = await endEnrollments(trx, teamId, { leadUuid, flowUuids: [from] }, 'canceled', 'moved');
        if (ended === 0) {
          const enrollment = await repo.selectEnrollmentOf(trx, teamId, from, leadUuid);
          if (!enrollment) throw notFound('Enrollment of this contact in this flow');
          throw conflict(
            `The contact's enrollment in this flow has ended (status ${enrollment.status}); only a contact in the flow moves. Enrol it in the other flow instead.`,
            { enrollment_uuid: enrollment.uuid },
          );
        }
        await enrolOne(trx, teamId, to, leadUuid, contactSourceIdOf(body.contact_source_id), {
          flow: 'to_flow_uuid',
          source: 'contact_source_id',
        });
      });
    },

    async cancelAll(teamId: number, leadUuid: string) {
      await requireLead(teamId, leadUuid);
      await db
        .transaction()
        .execute((trx) => endEnrollments(trx, teamId, { leadUuid }, 'canceled', 'canceled'));
    },

    /** Removes the contact's whole enrollment history (live ones end first, canceling their tasks). */
    async deleteHistory(teamId: number, leadUuid: string) {
      await requireLead(teamId, leadUuid);
      await db.transaction().execute(async (trx) => {
        await endEnrollments(trx, teamId, { leadUuid }, 'canceled', 'history_deleted');
        await repo.deleteEnrollmentsOfLead(trx, teamId, leadUuid);
      });
    },
  };
}

export type EnrollmentsService = ReturnType<typeof createEnrollmentsService>;
