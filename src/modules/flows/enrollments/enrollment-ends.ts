// Enrollments of contacts that go away: a deleted contact's live enrollments end (canceled,
// contact_deleted) when the deletion purge reaches it; they stay as history.
import { type SqlBool, sql } from 'kysely';
import { endEnrollments } from '../../enrollments/enrollment-signals.js';
import type { LeadPurgeStep } from '../../leads/lead-deletion.js';

export const endEnrollmentsOfDeletedLeads: LeadPurgeStep = async (trx, teamId, leadUuids) => {
  await endEnrollments(
    trx,
    teamId,
    { where: sql<SqlBool>`fl.lead_uuid = any(${leadUuids}::uuid[])` },
    'canceled',
    'contact_deleted',
  );
};
