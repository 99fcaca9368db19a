// Data for the tasks benchmark: a year of a busy team's tasks written with generate_series (one
// statement per chunk, so the count-delta triggers run as they would for the engine's batches).
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';

/** One node type per node id of every flow (ids 2..6). */
const NODE_TYPES = [
  'linkedin_visit_profile',
  'linkedin_send_connection_request',
  'util_timer',
  'linkedin_send_message',
  'email_send_message',
];

export type TaskSeedOptions = {
  teamId: number;
  flows: string[];
  senders: string[];
  /** Total tasks of the run: creation times spread over the year before now in this many steps. */
  total: number;
  start: number;
  count: number;
};

/**
 * Inserts tasks `start` .. `start + count - 1` of the team:
 * - every 50th a to-do in progress (half linkedin_like_latest_post, half linkedin_endorse_skills);
 * - the rest a flow's (50 flows, nodes 2-6, one type per node, every 997th an InMail), 70% closed,
 *   10% in progress, 5% failed, 10% skipped, 5% canceled; executed an hour after creation when done;
 * - senders in turn, one enrollment per 5 steps, a million distinct contacts.
 */
export async function seedTasks(db: Database, options: TaskSeedOptions): Promise<void> {
  const { teamId, start, count, total } = options;
  const flows = sql`${options.flows}::uuid[]`;
  const senders = sql`${options.senders}::uuid[]`;
  const nodeTypes = sql`${NODE_TYPES}::text[]`;
  await sql`
    insert into tasks (team_id, uuid, lead_uuid, sender_profile_uuid, flow_uuid, flow_lead_uuid, flow_node_id, step,
      type, automation, status, payload, attempts, error_msg, automation_error_code, schedule_at, executed_at,
      taken_to_execute_at, created_at, updated_at)
    select ${teamId}, leadflow_uuid_v7(), md5('lead' || (i % 1000000))::uuid, (${senders})[1 + i % ${options.senders.length}],
      case when manual then null else (${flows})[1 + (i / 7) % ${options.flows.length}] end,
      case when manual then null else md5('fl' || (i / 5))::uuid end,
      case when manual then null else 2 + i % 5 end,
      case when manual then null else i % 5 end,
      case when manual then (case when (i / 50) % 2 = 0 then 'linkedin_like_latest_post' else 'linkedin_endorse_skills' end)
        when i % 997 = 0 then 'linkedin_send_inmail'
        else (${nodeTypes})[1 + i % 5] end,
      case when manual then 'manual' else 'auto' end,
      status, '{"template": "Hi {{first_name}}"}'::jsonb, case when status = 'in_progress' then 0 else 1 end,
      case when status = 'failed' then 'Seeded failure' end,
      case when status = 'failed' then (case when i % 2 = 0 then 'unknown' else 'replied' end) end,
      created + interval '30 minutes',
      case when status in ('closed', 'failed', 'skipped') then created + interval '1 hour' end,
      case when status in ('closed', 'failed') then created + interval '1 hour' end,
      created, created
    from generate_series(${start}::bigint, ${start + count - 1}::bigint) as g(i)
    cross join lateral (select i % 50 = 0 as manual,
      now() - make_interval(secs => (${total}::bigint - i) * (31536000.0 / ${total})) as created) m
    cross join lateral (select case when manual then 'in_progress'
      else (case when (i * 7919) % 100 < 70 then 'closed' when (i * 7919) % 100 < 80 then 'in_progress'
        when (i * 7919) % 100 < 85 then 'failed' when (i * 7919) % 100 < 95 then 'skipped' else 'canceled' end)
      end as status) s
  `.execute(db);
}
