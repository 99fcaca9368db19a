// SQL of activities: the list, and the one way activities are written. Every writer - the API, the
// events of the channels, CRM changes, enrollments - goes through `activityCtes`, so an activity and
// the markers it moves are written by the same statement, in the caller's transaction.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { activityCountDeltas, sumDeltas } from '../../db/count-deltas.js';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import { newId } from '../../lib/ids.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { ActivityObjectType } from './activities.tables.js';
import { markerUpsert } from './markers.repository.js';

export const ACTIVITY_OBJECT_TYPES = ['lead', 'company'] as const;

export const activityFilterFields: FilterSpec['fields'] = {
  type: { type: 'string', column: 'a.type', description: 'Activity type (e.g. email_sent, call)' },
  lead_uuid: { type: 'uuid', column: 'a.lead_uuid', description: 'Activities of this contact' },
  company_uuid: {
    type: 'uuid',
    column: 'a.company_uuid',
    description: 'Activities of this company and of its contacts',
  },
  object_type: {
    type: 'enum',
    column: 'a.object_type',
    values: ACTIVITY_OBJECT_TYPES,
    description: 'lead or company',
  },
  object_uuid: { type: 'uuid', column: 'a.object_uuid', description: 'The contact or company' },
  uuid: { type: 'uuid', column: 'a.uuid', description: 'Activity' },
  created_at: { type: 'datetime', column: 'a.created_at', description: 'When it happened' },
};
const activityFilter: FilterSpec = { name: 'activity filter', fields: activityFilterFields };

export const activitySort: SortSpec = {
  fields: { created_at: 'a.created_at', uuid: 'a.uuid' },
  tiebreaker: 'a.uuid',
};

const COLUMNS = [
  'a.uuid',
  'a.team_id',
  'a.object_type',
  'a.object_uuid',
  'a.lead_uuid',
  'a.company_uuid',
  'a.type',
  'a.payload',
  'a.user_id',
  'a.created_at',
] as const;

function onlyKeys(filter: unknown, keys: string[]): boolean {
  if (filter === undefined || filter === null) return true;
  return Object.keys(filter as object).every((key) => keys.includes(key));
}

/** The total of a page: from the count deltas when the filter names at most the type, else counted. */
async function countActivities(
  db: Executor,
  teamId: number,
  filter: unknown,
  where: RawBuilder<SqlBool> | undefined,
): Promise<number> {
  if (onlyKeys(filter, ['type'])) {
    const typeWhere = compileFilter(
      { name: 'activity filter', fields: { type: { type: 'string', column: 'd.type' } } },
      filter,
    );
    const [total] = await sumDeltas(db, activityCountDeltas, teamId, typeWhere ? { where: typeWhere } : {});
    return total?.count ?? 0;
  }
  const { rows } = await sql<{ total: number }>`
    select count(*)::bigint as total from activities a where a.team_id = ${teamId} and ${where!}
  `.execute(db);
  return Number(rows[0]?.total ?? 0);
}

export async function selectActivities(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(activityFilter, filter);
  let base = db.selectFrom('activities as a').where('a.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, total] = await Promise.all([
    base
      .select(COLUMNS)
      .orderBy(orderByClause(page, activitySort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    countActivities(db, teamId, filter, where),
  ]);
  return { rows, total };
}

export async function selectActivity(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('activities as a')
    .select(COLUMNS)
    .where('a.team_id', '=', teamId)
    .where('a.uuid', '=', uuid)
    .executeTakeFirst();
}

/**
 * Two CTEs - `recorded_activities` and `recorded_markers` - that record one activity per row of `source`
 * (a CTE name or a parenthesised subquery, read as `v`, with the columns of `activityColumns`: uuid,
 * object_type, object_uuid, company_uuid, type, payload jsonb, user_id, created_at; null uuid,
 * company_uuid, payload, created_at take a new uuid, the contact's company, {} and now()), and move the contacts' markers by the channel activities among
 * them. Put them after the caller's own CTEs: data-changing CTEs must be at the top of a statement.
 */
export function activityCtes(teamId: number, source: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    recorded_activities as (
      insert into activities (team_id, uuid, object_type, object_uuid, lead_uuid, company_uuid, type,
        payload, user_id, created_at)
      select ${teamId}, coalesce(v.uuid, leadflow_uuid_v7()), v.object_type, v.object_uuid,
        case when v.object_type = 'lead' then v.object_uuid end,
        case when v.object_type = 'company' then v.object_uuid else coalesce(v.company_uuid, l.company_uuid) end,
        v.type, coalesce(v.payload, '{}'::jsonb), v.user_id, coalesce(v.created_at, now())
      from ${source} v
      -- The team's contacts as a subquery: Citus plans a join to a CTE's rows as a subquery of leads
      -- and keeps only its own WHERE (a team filter in ON would leave it reading every shard).
      left join (select uuid, company_uuid from leads where team_id = ${teamId}) l
        on v.object_type = 'lead' and l.uuid = v.object_uuid
      -- A contact deleted meanwhile gets no activity: its timeline is gone with it.
      where v.object_type = 'company' or l.uuid is not null
      returning lead_uuid, type, payload, created_at
    ),
    recorded_markers as (${markerUpsert(teamId, sql`recorded_activities`)})`;
}

export type ActivityInput = {
  type: string;
  objectType: ActivityObjectType;
  objectUuid: string;
  /** For a contact: its company (default: the contact's current company). */
  companyUuid?: string | null;
  payload?: Record<string, unknown>;
  userId?: number | null;
  createdAt?: Date | string | null;
};

const INPUT_RECORDSET = sql`(uuid uuid, object_type text, object_uuid uuid, company_uuid uuid, type text,
  payload jsonb, user_id bigint, created_at timestamptz)`;

/**
 * Records the given activities (one statement) and returns their uuids in input order (an activity of a
 * contact that no longer exists is not recorded).
 */
export async function recordActivities(trx: Executor, teamId: number, inputs: ActivityInput[]) {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input) => ({
    uuid: newId(),
    object_type: input.objectType,
    object_uuid: input.objectUuid,
    company_uuid: input.companyUuid ?? null,
    type: input.type,
    payload: input.payload ?? {},
    user_id: input.userId ?? null,
    created_at: input.createdAt instanceof Date ? input.createdAt.toISOString() : (input.createdAt ?? null),
  }));
  await sql`
    with ${activityCtes(
      teamId,
      sql`(select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as i${INPUT_RECORDSET})`,
    )}
    select 1
  `.execute(trx);
  return rows.map((row) => row.uuid);
}

/**
 * Records one activity per row of `select` (a query with the source columns of `activityCtes`), in one
 * statement: a background batch of thousands of contacts costs one round trip.
 */
export async function recordActivitiesFrom(trx: Executor, teamId: number, select: RawBuilder<unknown>) {
  const result = await sql<{ n: number }>`
    with ${activityCtes(teamId, sql`(${select})`)}
    select count(*)::int as n from recorded_activities
  `.execute(trx);
  return result.rows[0]?.n ?? 0;
}

/** Activities of deleted contacts go with them (purge step of the contact deletion job). */
export async function deleteActivitiesOfLeads(trx: Executor, teamId: number, leadUuids: string[]) {
  if (leadUuids.length === 0) return;
  await sql`delete from activities where team_id = ${teamId} and lead_uuid = any(${leadUuids}::uuid[])`.execute(
    trx,
  );
  await sql`delete from lead_markers where team_id = ${teamId} and lead_uuid = any(${leadUuids}::uuid[])`.execute(
    trx,
  );
}

/** A deleted company's own activities go with it; its contacts' stay on their timelines. */
export async function deleteActivitiesOfCompanies(trx: Executor, teamId: number, companyUuids: string[]) {
  if (companyUuids.length === 0) return;
  await sql`
    delete from activities
    where team_id = ${teamId} and company_uuid = any(${companyUuids}::uuid[]) and object_type = 'company'
  `.execute(trx);
}

/**
 * Whether the team has the contact or company a timeline entry (activity, note) is about; it is then
 * kept from being deleted until the transaction ends (a deletion meanwhile would orphan the entry).
 */
export async function lockTimelineRecord(
  db: Executor,
  teamId: number,
  objectType: ActivityObjectType,
  uuid: string,
): Promise<boolean> {
  const table = objectType === 'lead' ? 'leads' : 'companies';
  const row = await db
    .selectFrom(table)
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .forKeyShare()
    .executeTakeFirst();
  return row !== undefined;
}
