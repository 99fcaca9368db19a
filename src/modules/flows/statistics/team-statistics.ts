// Team analytics over a period (POST /flows/api/statistics/team): per sender and day, the actions handed
// to their channel beside the day's limit, and conversions per day grouped by sender, flow or contact
// source. Set-based and bounded by the period: actions are read on the (team, sender, taken) indexes
// the dispatcher counts limits with (a sender's actions per day are capped by its limits), conversions
// from the conversion deltas in the period on their (team, occurred_at) index - never a count over a
// team's tasks or enrollments.
import { type RawBuilder, sql } from 'kysely';
import type { Database } from '../../../db/database.js';
import { invalidField } from '../../../lib/errors.js';
import { addDays, daysBetween, localDayRange } from '../../../lib/schedule.js';
import { senderActions } from '../../engine/index.js';
import { effectiveDailyLimits, SENDER_ACTION_TYPES } from '../../senders/sender-limits.js';
import { TEAM_STATISTICS_MAX_DAYS } from './team-statistics.schemas.js';

export type TeamStatisticsRequest = {
  from: string;
  to: string;
  time_zone?: string;
  flow_uuids?: string[];
  sender_profile_uuids?: string[];
  group_by?: 'sender' | 'flow' | 'contact_source';
};

type PerDay = Record<string, number[]>;

const lower = (uuids: string[] | undefined) => uuids?.map((uuid) => uuid.toLowerCase());

/** Adds `n` at day `index` of the series `key` of `series`, creating it with zeros. */
function bump(series: PerDay, key: string, index: number, n: number, days: number) {
  series[key] ??= new Array(days).fill(0);
  series[key][index]! += n;
}

const GROUP_COLUMNS: Record<NonNullable<TeamStatisticsRequest['group_by']>, RawBuilder<unknown>> = {
  sender: sql`d.sender_profile_uuid, null::uuid as flow_uuid, null::int as contact_source_id`,
  flow: sql`null::uuid as sender_profile_uuid, d.flow_uuid, null::int as contact_source_id`,
  contact_source: sql`null::uuid as sender_profile_uuid, d.flow_uuid, d.contact_source_id`,
};

export async function teamStatistics(db: Database, teamId: number, request: TeamStatisticsRequest) {
  const span = daysBetween(request.from, request.to);
  if (span < 0) throw invalidField('to', 'to is before from.');
  if (span >= TEAM_STATISTICS_MAX_DAYS) {
    throw invalidField('to', `A period covers at most ${TEAM_STATISTICS_MAX_DAYS} days.`);
  }
  const team = await db
    .selectFrom('teams')
    .select('config')
    .where('id', '=', teamId)
    .executeTakeFirstOrThrow();
  const teamZone = team.config.timezone;
  const zone = request.time_zone ?? (typeof teamZone === 'string' ? teamZone : 'UTC');
  const days = Array.from({ length: span + 1 }, (_, i) => addDays(request.from, i));
  const start = localDayRange(request.from, zone).start;
  const end = localDayRange(request.to, zone).end;
  const flows = lower(request.flow_uuids);
  const wantedSenders = lower(request.sender_profile_uuids);

  if (flows) {
    const known = await db
      .selectFrom('flows')
      .select('uuid')
      .where('team_id', '=', teamId)
      .where('uuid', 'in', flows)
      .execute();
    const missing = flows.filter((uuid) => !known.some((flow) => flow.uuid === uuid));
    if (missing.length > 0)
      throw invalidField('flow_uuids', `Not flows of your team: ${missing.join(', ')}.`);
  }
  let senderQuery = db
    .selectFrom('sender_profiles')
    .selectAll()
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .orderBy('uuid');
  if (wantedSenders) senderQuery = senderQuery.where('uuid', 'in', wantedSenders);
  const senders = await senderQuery.execute();
  if (wantedSenders) {
    const missing = wantedSenders.filter((uuid) => !senders.some((sender) => sender.uuid === uuid));
    if (missing.length > 0) {
      throw invalidField('sender_profile_uuids', `Not sender profiles of your team: ${missing.join(', ')}.`);
    }
  }
  const senderUuids = senders.map((sender) => sender.uuid);
  const day = (column: RawBuilder<unknown>) => sql`to_char(${column} at time zone ${zone}, 'YYYY-MM-DD')`;

  const [actions, conversions] = await Promise.all([
    sql<{ sender_profile_uuid: string; type: string; day: string; n: number }>`
      select u.sender_profile_uuid, u.type, ${day(sql`u.at`)} as day, count(*)::int as n
      from ${senderActions(teamId, senderUuids, start, end)} u
      ${flows ? sql`where u.flow_uuid = any(${flows}::uuid[])` : sql``}
      group by 1, 2, 3
    `.execute(db),
    sql<{
      sender_profile_uuid: string | null;
      flow_uuid: string | null;
      contact_source_id: number | null;
      channel: string;
      kind: string;
      day: string;
      n: number;
    }>`
      select ${GROUP_COLUMNS[request.group_by ?? 'sender']}, d.channel, d.kind,
        ${day(sql`d.occurred_at`)} as day, sum(d.delta)::int as n
      from flow_conversion_deltas d
      where d.team_id = ${teamId} and d.occurred_at >= ${start} and d.occurred_at < ${end}
        ${flows ? sql`and d.flow_uuid = any(${flows}::uuid[])` : sql``}
        ${wantedSenders ? sql`and d.sender_profile_uuid = any(${wantedSenders}::uuid[])` : sql``}
      group by 1, 2, 3, 4, 5, 6
      having sum(d.delta) <> 0
    `.execute(db),
  ]);

  const index = new Map(days.map((date, i) => [date, i]));
  const bySender = new Map(
    senders.map((sender) => {
      const daily_limits: PerDay = {};
      days.forEach((date, i) => {
        const limits = effectiveDailyLimits(sender, date);
        for (const type of SENDER_ACTION_TYPES) bump(daily_limits, type, i, limits[type], days.length);
      });
      const name = sender.label || [sender.first_name, sender.last_name].filter(Boolean).join(' ');
      return [
        sender.uuid,
        {
          sender_profile_uuid: sender.uuid,
          name,
          status: sender.status,
          actions: {} as PerDay,
          daily_limits,
        },
      ];
    }),
  );
  for (const row of actions.rows) {
    const i = index.get(row.day);
    const entry = bySender.get(row.sender_profile_uuid);
    if (i !== undefined && entry) bump(entry.actions, row.type, i, row.n, days.length);
  }

  const groups = new Map<
    string,
    {
      sender_profile_uuid: string | null;
      flow_uuid: string | null;
      contact_source_id: number | null;
      channels: Record<string, PerDay>;
    }
  >();
  for (const row of conversions.rows) {
    const i = index.get(row.day);
    if (i === undefined) continue;
    const key = `${row.sender_profile_uuid}/${row.flow_uuid}/${row.contact_source_id}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        sender_profile_uuid: row.sender_profile_uuid,
        flow_uuid: row.flow_uuid,
        contact_source_id: row.contact_source_id,
        channels: {},
      };
      groups.set(key, group);
    }
    group.channels[row.channel] ??= {};
    bump(group.channels[row.channel]!, row.kind, i, row.n, days.length);
  }
  return { time_zone: zone, days, senders: [...bySender.values()], conversions: [...groups.values()] };
}
