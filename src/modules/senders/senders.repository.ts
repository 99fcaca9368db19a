import { type Selectable, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { compileFilter, type FilterSpec, filterError } from '../../lib/filter.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';
import type { Schedule } from '../../lib/schedule.js';
import type { SenderProfilesTable } from './senders.tables.js';

export type SenderProfileRow = Selectable<SenderProfilesTable>;

// A team has tens of profiles, so every filter is a short scan of the team's rows.
export const senderFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'First name, last name or label contains (case-insensitive)',
    compile: (value, { path }) => {
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw filterError(path, `${path} must be a string`);
      }
      const pattern = `%${String(value)
        .trim()
        .replace(/[\\%_]/g, '\\$&')}%`;
      return sql<SqlBool>`(s.first_name ilike ${pattern} or s.last_name ilike ${pattern} or s.label ilike ${pattern})`;
    },
  },
  uuid: { type: 'uuid', column: 's.uuid' },
  status: { type: 'enum', values: ['enabled', 'disabled'], column: 's.status' },
  assignee_user_id: { type: 'integer', column: 's.assignee_user_id' },
  user_id: { type: 'integer', column: 's.user_id' },
  mailbox_uuid: { type: 'uuid', column: 's.mailbox_uuid' },
  linkedin_browser_id: { type: 'integer', column: 's.linkedin_browser_id' },
  label: { type: 'string', column: 's.label' },
  created_at: { type: 'datetime', column: 's.created_at' },
  updated_at: { type: 'datetime', column: 's.updated_at' },
};
export const senderFilter: FilterSpec = { name: 'sender profile filter', fields: senderFilterFields };

export const senderSort: SortSpec = {
  fields: {
    created_at: 's.created_at',
    updated_at: 's.updated_at',
    first_name: 's.first_name',
    last_name: 's.last_name',
    label: 's.label',
    uuid: 's.uuid',
  },
  tiebreaker: 's.uuid',
};

export async function selectSenderProfiles(db: Executor, teamId: number, filter: unknown, page: PageRequest) {
  const where = compileFilter(senderFilter, filter);
  let base = db.selectFrom('sender_profiles as s').where('s.team_id', '=', teamId);
  if (where) base = base.where(where);
  const [rows, count] = await Promise.all([
    base
      .selectAll('s')
      .orderBy(orderByClause(page, senderSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectSenderProfile(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('sender_profiles')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/**
 * The status of each of `uuids` that names one of the team's profiles (others are absent from the
 * map): flows check the senders of a contact source with it, the engine skips disabled ones.
 */
/** What a sender can act through now: enabled or not, an active mailbox, a running LinkedIn seat. */
export type SenderChannels = {
  status: 'enabled' | 'disabled';
  name: string;
  mailbox: boolean;
  seat: boolean;
};

/** The channels of the team's senders among `uuids` (unknown ones are absent), in one statement. */
export async function selectSenderChannels(
  db: Executor,
  teamId: number,
  uuids: readonly string[],
): Promise<Map<string, SenderChannels>> {
  if (uuids.length === 0) return new Map();
  const { rows } = await sql<SenderChannels & { uuid: string }>`
    select s.uuid, s.status, trim(concat_ws(' ', s.first_name, s.last_name)) as name,
      exists (select 1 from mailboxes m where m.team_id = s.team_id and m.sender_profile_uuid = s.uuid
        and m.status = 'active') as mailbox,
      exists (select 1 from linkedin_browsers b where b.team_id = s.team_id and b.sender_profile_uuid = s.uuid
        and b.status = 'running') as seat
    from sender_profiles s
    where s.team_id = ${teamId} and s.uuid = any(${[...uuids]}::uuid[])
  `.execute(db);
  return new Map(rows.map(({ uuid, ...channels }) => [uuid, channels]));
}

export type SenderProfileValues = {
  first_name: string;
  last_name: string | null;
  label: string | null;
  avatar_url: string | null;
  assignee_user_id: number | null;
  schedule: Schedule;
  limits: Record<string, number>;
  weekly_limits: Record<string, number>;
  smart_limits_enabled: boolean;
  action_interval_seconds: number | null;
  notification_emails: string | null;
  status: 'enabled' | 'disabled';
};

export async function insertSenderProfile(
  db: Executor,
  row: { team_id: number; uuid: string; user_id: number } & SenderProfileValues,
) {
  return db
    .insertInto('sender_profiles')
    .values({
      team_id: row.team_id,
      uuid: row.uuid,
      user_id: row.user_id,
      first_name: row.first_name,
      last_name: row.last_name,
      label: row.label,
      avatar_url: row.avatar_url,
      assignee_user_id: row.assignee_user_id,
      schedule: JSON.stringify(row.schedule),
      limits: JSON.stringify(row.limits),
      weekly_limits: JSON.stringify(row.weekly_limits),
      smart_limits_enabled: row.smart_limits_enabled,
      action_interval_seconds: row.action_interval_seconds,
      notification_emails: row.notification_emails,
      status: row.status,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Locks the profile for a read-modify-write of its settings. */
export async function lockSenderProfile(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('sender_profiles')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateSenderProfile(
  db: Executor,
  teamId: number,
  uuid: string,
  values: Omit<SenderProfileValues, 'status'>,
) {
  return db
    .updateTable('sender_profiles')
    .set({
      first_name: values.first_name,
      last_name: values.last_name,
      label: values.label,
      avatar_url: values.avatar_url,
      assignee_user_id: values.assignee_user_id,
      schedule: JSON.stringify(values.schedule),
      limits: JSON.stringify(values.limits),
      weekly_limits: JSON.stringify(values.weekly_limits),
      smart_limits_enabled: values.smart_limits_enabled,
      action_interval_seconds: values.action_interval_seconds,
      notification_emails: values.notification_emails,
      updated_at: sql<Date>`now()`,
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function setSenderProfileStatus(
  db: Executor,
  teamId: number,
  uuid: string,
  status: 'enabled' | 'disabled',
  now: Date,
) {
  return db
    .updateTable('sender_profiles')
    .set({
      status,
      // Only a real change moves updated_at (a value: Citus refuses now() inside CASE in an UPDATE).
      updated_at: sql<Date>`case when status = ${status} then updated_at else ${now}::timestamptz end`,
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

export async function isTeamMember(db: Executor, teamId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes the profile and lets go of its live enrollments in the same statement. Contact sources are
 * parts of immutable flow versions, so the profile stays named there; the engine and flow warnings
 * ignore senders that no longer exist. Each live enrollment of the profile loses its sender:
 * - when another enabled profile of its contact source can take it, it is due now and the engine
 *   reassigns it by the source's rotation (one paused only because this profile was disabled resumes);
 * - otherwise it is paused now with reason `no_sender` (it was running or paused for this profile).
 * Their planned actions that never started are deleted (the engine plans the step again with the new
 * sender), and so is the profile's dispatch state; data sources using it lose their sender. Claim tokens move on, so a worker holding one of
 * them lets it go. Returns whether the profile existed and how many enrollments were reassigned and
 * paused.
 */
export async function deleteSenderProfile(db: Executor, teamId: number, uuid: string, now: Date) {
  const result = await sql<{ deleted: number; reassigned: number; paused: number }>`
    with deleted as (
      delete from sender_profiles where team_id = ${teamId} and uuid = ${uuid} returning uuid
    ),
    sources as (
      select distinct fl.flow_version_uuid, fl.contact_source_id
      from flow_leads fl
      where fl.team_id = ${teamId} and fl.sender_profile_uuid = ${uuid}
        and fl.status in ('in_progress', 'paused') and exists (select 1 from deleted)
    ),
    takers as (
      select s.flow_version_uuid, s.contact_source_id, exists (
        select 1
        from flow_versions v
        cross join lateral jsonb_array_elements(v.contact_sources) cs
        cross join lateral jsonb_array_elements_text(coalesce(cs -> 'sender_profiles', '[]')) named (uuid)
        join sender_profiles other on other.team_id = v.team_id and other.uuid::text = lower(named.uuid)
        where v.team_id = ${teamId} and v.uuid = s.flow_version_uuid
          and jsonb_typeof(cs -> 'sender_profiles') = 'array'
          and (cs ->> 'id') = s.contact_source_id::text
          and other.uuid <> ${uuid} and other.status = 'enabled'
      ) as has_other
      from sources s
    ),
    released as (
      update flow_leads fl set
        sender_profile_uuid = null,
        status = case
          when not t.has_other then 'paused'
          when fl.status = 'paused' and fl.reason = 'sender_disabled' then 'in_progress'
          else fl.status end,
        reason = case
          when not t.has_other and (fl.status = 'in_progress' or fl.reason = 'sender_disabled') then 'no_sender'
          when t.has_other and fl.status = 'paused' and fl.reason = 'sender_disabled' then null
          else fl.reason end,
        next_run_at = case
          when not t.has_other then null
          when fl.status = 'in_progress' or fl.reason = 'sender_disabled' then ${now}::timestamptz
          else fl.next_run_at end,
        claim_token = fl.claim_token + 1, lease_until = null,
        updated_at = ${now}
      from takers t
      where fl.team_id = ${teamId} and fl.sender_profile_uuid = ${uuid}
        and fl.status in ('in_progress', 'paused')
        and fl.flow_version_uuid = t.flow_version_uuid and fl.contact_source_id = t.contact_source_id
      returning fl.uuid, t.has_other
    ),
    -- Their planned actions were the profile's; never started, they go, and the engine plans the step
    -- again with the next sender. Actions already handed to a channel stay for the reconciler.
    unplanned as (
      delete from tasks x using released r
      where x.team_id = ${teamId} and x.flow_lead_uuid = r.uuid and x.sender_profile_uuid = ${uuid}
        and x.automation = 'auto' and x.status = 'in_progress' and x.taken_to_execute_at is null
      returning 1
    ),
    dispatch as (
      delete from sender_channel_state where team_id = ${teamId} and sender_profile_uuid = ${uuid}
        and exists (select 1 from deleted)
      returning 1),
    -- Data sources searching through the profile keep going without one (the foreign key checks at
    -- the end of the statement; an ON DELETE SET NULL with team_id in the key is refused by Citus).
    unlinked as (
      update data_sources set sender_profile_uuid = null
      where team_id = ${teamId} and sender_profile_uuid = ${uuid} and exists (select 1 from deleted)
      returning 1
    )
    select (select count(*) from deleted)::int as deleted,
      (select count(*) from released where has_other)::int as reassigned,
      (select count(*) from released where not has_other)::int as paused
  `.execute(db);
  const row = result.rows[0]!;
  return { deleted: row.deleted > 0, reassigned: row.reassigned, paused: row.paused };
}
