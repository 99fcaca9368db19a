import { type SqlBool, sql } from 'kysely';
import { flowLeadCountDeltas, sumDeltas } from '../../../db/count-deltas.js';
import type { Executor } from '../../../db/database.js';
import { and } from '../../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../../lib/pagination.js';

export const enrollmentSort: SortSpec = {
  fields: { created_at: 'fl.created_at', uuid: 'fl.uuid' },
  tiebreaker: 'fl.uuid',
};

export type EnrollmentFilter = { flows?: string[]; leads?: string[]; statuses?: string[] };

const ENROLLMENT_COLUMNS = sql`fl.uuid, fl.team_id, fl.flow_uuid, fl.flow_version_uuid, fl.lead_uuid,
  fl.contact_source_id, fl.added_by, fl.sender_profile_uuid, fl.status, fl.flow_node_id, fl.next_run_at,
  fl.reason, fl.started_at, fl.finished_at, fl.created_at, fl.updated_at`;

export type EnrollmentRow = {
  uuid: string;
  team_id: number;
  flow_uuid: string;
  flow_version_uuid: string;
  lead_uuid: string;
  contact_source_id: number;
  added_by: string;
  sender_profile_uuid: string | null;
  status: 'in_progress' | 'paused' | 'finished' | 'canceled' | 'failed';
  flow_node_id: number | null;
  next_run_at: Date | null;
  reason: string | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/**
 * `column = value` for one value, `column = any(values)` for several. One flow and one status must be
 * an equality: only then does PostgreSQL read the page in order from (team, flow, status, created_at)
 * and stop after it; with `= any` it walks the team's enrollments by creation time and filters them,
 * which at a million enrollments costs seconds for a rare status.
 */
function oneOf(column: string, values: string[], type: 'uuid' | 'text') {
  const ref = sql.ref(column);
  const distinct = [...new Set(values)];
  return distinct.length === 1
    ? sql<SqlBool>`${ref} = ${distinct[0]}::${sql.raw(type)}`
    : sql<SqlBool>`${ref} = any(${distinct}::${sql.raw(type)}[])`;
}

function conditions(filter: EnrollmentFilter) {
  return and([
    ...(filter.flows ? [oneOf('fl.flow_uuid', filter.flows, 'uuid')] : []),
    ...(filter.leads ? [oneOf('fl.lead_uuid', filter.leads, 'uuid')] : []),
    ...(filter.statuses ? [oneOf('fl.status', filter.statuses, 'text')] : []),
  ]);
}

export async function selectEnrollmentPage(
  db: Executor,
  teamId: number,
  filter: EnrollmentFilter,
  page: PageRequest,
): Promise<EnrollmentRow[]> {
  const where = conditions(filter) ?? sql<SqlBool>`true`;
  const { rows } = await sql<EnrollmentRow>`
    select ${ENROLLMENT_COLUMNS} from flow_leads fl
    where fl.team_id = ${teamId} and ${where}
    order by ${orderByClause(page, enrollmentSort)}
    limit ${page.limit} offset ${page.offset}
  `.execute(db);
  return rows;
}

/**
 * The exact number of enrollments matching `filter`. Without a contact in the filter it is a sum of
 * count deltas (a flow's million enrollments are never counted); with one, the few rows of those
 * contacts are counted on their index.
 */
export async function countEnrollments(
  db: Executor,
  teamId: number,
  filter: EnrollmentFilter,
): Promise<number> {
  if (filter.leads) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from flow_leads fl where fl.team_id = ${teamId} and ${conditions(filter)!}
    `.execute(db);
    return rows[0]!.n;
  }
  const where = and([
    ...(filter.flows ? [sql<SqlBool>`d.flow_uuid = any(${filter.flows}::uuid[])`] : []),
    ...(filter.statuses ? [sql<SqlBool>`d.status = any(${filter.statuses}::text[])`] : []),
  ]);
  const [total] = await sumDeltas(db, flowLeadCountDeltas, teamId, where ? { where } : {});
  return total?.count ?? 0;
}

export async function selectLeadState(db: Executor, teamId: number, leadUuid: string) {
  return db
    .selectFrom('leads')
    .select(['uuid', 'is_blacklisted'])
    .where('team_id', '=', teamId)
    .where('uuid', '=', leadUuid)
    .executeTakeFirst();
}

export async function selectEnrollmentOf(db: Executor, teamId: number, flowUuid: string, leadUuid: string) {
  return db
    .selectFrom('flow_leads')
    .select(['uuid', 'status'])
    .where('team_id', '=', teamId)
    .where('flow_uuid', '=', flowUuid)
    .where('lead_uuid', '=', leadUuid)
    .executeTakeFirst();
}

/** Deletes every enrollment of the contact (history included); returns how many. */
export async function deleteEnrollmentsOfLead(
  db: Executor,
  teamId: number,
  leadUuid: string,
): Promise<number> {
  const result = await db
    .deleteFrom('flow_leads')
    .where('team_id', '=', teamId)
    .where('lead_uuid', '=', leadUuid)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
