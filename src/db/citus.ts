// Leadflow on Citus (distributed PostgreSQL). When the database has the citus extension (or
// LEADFLOW_CITUS=true creates it), migrations place every table they create as it is created:
//
// - a tenant table (it has a team_id column) becomes a distributed table on team_id, co-located with
//   every other tenant table, so one team's rows of all tables sit in one shard group on one worker
//   and a team's request is a router query to that group;
// - a global table (GLOBAL_TABLES) becomes a reference table (copied to every node, so tenant tables
//   can keep their foreign keys to it and join it locally) or stays local to the coordinator.
//
// The placing is an event trigger on CREATE TABLE, so a new migration needs nothing Citus-specific:
// a table with team_id is distributed, and a table without one stops the migration with a message
// saying what to do. The job queue (graphile-worker's own schema) and the migration bookkeeping stay
// plain tables on the coordinator.
import { sql } from 'kysely';
import type { Executor } from './database.js';

/** Tables without a team (or shared by every team), and where they live on Citus. */
export const GLOBAL_TABLES: Record<string, { placement: 'reference' | 'local'; why: string }> = {
  users: { placement: 'reference', why: 'a user belongs to several teams; tenant tables reference them' },
  teams: { placement: 'reference', why: 'the tenant root: every tenant table has a foreign key to it' },
  team_members: { placement: 'reference', why: 'read by user (which teams may this key act for)' },
  api_keys: { placement: 'reference', why: 'looked up by key hash before the team is known' },
  worker_heartbeats: {
    placement: 'local',
    why: 'job queue bookkeeping, beside the queue on the coordinator',
  },
  team_invites: {
    placement: 'reference',
    why: 'an invite link is looked up by its token before the team is known',
  },
  user_passwords: {
    placement: 'local',
    why: 'read and written by API processes only, which use the coordinator',
  },
  user_sessions: {
    placement: 'local',
    why: 'a browser session is looked up by its token on every web request',
  },
  password_tokens: {
    placement: 'local',
    why: 'one-time links, looked up by token before anything else is known',
  },
};

/** Whether the connected database is a Citus coordinator (the citus extension is installed). */
export async function hasCitus(db: Executor): Promise<boolean> {
  const { rows } = await sql<{ citus: boolean }>`
    select exists (select 1 from pg_extension where extname = 'citus') as citus
  `.execute(db);
  return rows[0]?.citus ?? false;
}

/**
 * Installs (or refreshes) the event trigger that places new tables. Runs before every migration run
 * on Citus; the global tables are written into the function, so the code's list is the one in force.
 */
export async function installCitusPlacement(db: Executor): Promise<void> {
  const globals = Object.entries(GLOBAL_TABLES).map(
    ([name, { placement }]) => sql`(${sql.lit(name)}, ${sql.lit(placement)})`,
  );
  await sql`
    create or replace function leadflow_citus_place_tables() returns event_trigger language plpgsql as $$
    declare
      created record;
      placement text;
      anchor regclass;
    begin
      -- Only migrations place tables (src/db/migrate.ts sets this); other DDL is left alone.
      if current_setting('leadflow.citus_placement', true) is distinct from 'on' then
        return;
      end if;
      for created in
        select c.oid::regclass as rel, c.relname as name
        from pg_event_trigger_ddl_commands() d
        join pg_class c on c.oid = d.objid
        join pg_namespace n on n.oid = c.relnamespace
        where d.command_tag = 'CREATE TABLE' and d.object_type = 'table' and n.nspname = 'public'
          and c.relpersistence = 'p' and c.relkind in ('r', 'p')
          and c.relname not like 'kysely\\_%'
          and not pg_catalog.relation_is_a_known_shard(c.oid)
          and not exists (select 1 from pg_dist_partition p where p.logicalrelid = c.oid)
      loop
        select g.placement into placement from (values ${sql.join(globals)}) g (name, placement)
        where g.name = created.name;
        if placement = 'reference' then
          perform create_reference_table(created.rel);
        elsif placement = 'local' then
          null;
        elsif exists (select 1 from pg_attribute a where a.attrelid = created.rel and a.attname = 'team_id'
                      and not a.attisdropped) then
          -- Every tenant table joins the co-location group of the first one.
          select p.logicalrelid into anchor from pg_dist_partition p
          where p.partmethod = 'h' order by p.logicalrelid limit 1;
          perform create_distributed_table(created.rel, 'team_id',
            colocate_with => coalesce(anchor::text, 'default'));
        else
          raise exception 'Leadflow on Citus: table % has no team_id column', created.name
            using hint = 'A tenant table needs team_id (bigint, leading its primary key and every unique '
              'index) and is distributed by it. A table shared by all teams goes in GLOBAL_TABLES of '
              'src/db/citus.ts (reference or coordinator-local). See src/modules/README.md, "Tenant tables".';
        end if;
      end loop;
    end $$
  `.execute(db);
  await sql`drop event trigger if exists leadflow_citus_place_tables`.execute(db);
  await sql`
    create event trigger leadflow_citus_place_tables on ddl_command_end when tag in ('CREATE TABLE')
      execute function leadflow_citus_place_tables()
  `.execute(db);
}

/**
 * The statements allowed to reach more than one shard group on Citus: background work that spans
 * teams by nature. Every other statement of the application is a router query (one team, one shard
 * group); `npm run test:citus` fails on a multi-shard statement without one of these marks.
 */
export const CROSS_TEAM = {
  'engine-claim': 'the engine finds the teams with due enrollments (then claims team by team)',
  'engine-next-due': 'an idle engine waits until the earliest due enrollment of any team',
  'engine-dispatch-claim':
    'the dispatcher finds the teams with senders due to act (then claims team by team)',
  'engine-wake': 'an idle engine waits until the earliest thing due in any team',
  'sandbox-responses': 'the sandbox network finds the teams with answers due (then answers team by team)',
  'sandbox-next-response': 'the simulation jumps to the earliest sandbox answer of any team',
  'linkedin-sync-seats': 'every running seat of every team gets a sync state (one set-based statement)',
  'linkedin-sync-claim': 'the inbox sync finds the teams with seats due (then claims team by team)',
  'files-retention': 'the hourly clean-up finds the teams with expired files (then marks team by team)',
  'mailbox-sync-claim': 'the mailbox sync finds the teams with mailboxes due (then claims team by team)',
  'filter-sources-sweep':
    "the scheduled sweep lists every team's live filter sources (each is filled on its own)",
  'enrichment-sweep': 'the scheduled sweep finds the teams with enrichment entries due',
  'engine-reconcile':
    'the reconciler finds actions of any team whose outcome went unrecorded (then checks each)',
  'seat-health-due': 'the health tour picks the running Chromium seat of any team most in need of one',
} as const satisfies Record<string, string>;

export type CrossTeamStatement = keyof typeof CROSS_TEAM;

/** The mark of an allowed multi-shard statement: put it at the start of the statement's SQL. */
export function crossTeam(name: CrossTeamStatement) {
  return sql.raw(`/* cross-team:${name} */`);
}

/**
 * The constraint a PostgreSQL error names, as the schema names it. On Citus the error comes from a
 * shard: the coordinator passes on its message but not its constraint field, and a shard's constraints
 * carry the shard id (`leads_team_linkedin_key_102008`). Shard ids have six or more digits; no
 * constraint of the schema ends in a number that long.
 */
export function constraintOf(error: unknown): string | undefined {
  const { constraint, message } = (error ?? {}) as { constraint?: unknown; message?: unknown };
  const name =
    typeof constraint === 'string'
      ? constraint
      : typeof message === 'string'
        ? /constraint "([^"]+)"/.exec(message)?.[1]
        : undefined;
  return name?.replace(/_\d{6,}$/, '');
}
