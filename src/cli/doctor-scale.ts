// The doctor's checks of what several processes share: Redis (the API processes' common rate-limit
// counters) and Citus (the database spread over several nodes, tables distributed by team).

import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import { GLOBAL_TABLES, hasCitus } from '../db/citus.js';
import type { Database } from '../db/database.js';
import type { Check } from './doctor.js';

const errorText = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

export async function checkRedis(config: Config): Promise<Check> {
  if (!config.redisUrl) {
    return {
      name: 'redis',
      status: 'info',
      detail: 'REDIS_URL not set: each API process counts the rate limit on its own',
      fix: 'several API processes: set REDIS_URL so they share one budget per key',
    };
  }
  const where = new URL(config.redisUrl).host;
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    connectTimeout: 3_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    const info = await redis.info('server');
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
    return { name: 'redis', status: 'ok', detail: `Redis ${version} at ${where}` };
  } catch (error) {
    return {
      name: 'redis',
      status: 'fail',
      detail: `REDIS_URL ${where}: ${errorText(error)}`,
      fix: 'start Redis there or fix REDIS_URL (unset it when one API process serves)',
    };
  } finally {
    redis.disconnect();
  }
}

/** Tenant tables (with a team_id) that Citus does not distribute: they would be served by the coordinator. */
async function undistributedTenantTables(db: Database): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    select c.table_name as "table"
      from information_schema.columns c
      join information_schema.tables t using (table_schema, table_name)
     where c.table_schema = 'public' and c.column_name = 'team_id' and t.table_type = 'BASE TABLE'
       and not exists (select 1 from pg_dist_partition p where p.logicalrelid = format('public.%I', c.table_name)::regclass)
     order by 1
  `.execute(db);
  return rows.map((row) => row.table).filter((table) => !(table in GLOBAL_TABLES));
}

export async function checkCitus(config: Config, db: Database | undefined): Promise<Check | undefined> {
  if (!db) return undefined;
  if (!(await hasCitus(db))) {
    return {
      name: 'citus',
      status: 'info',
      detail: `plain PostgreSQL${config.citus === true ? ' although LEADFLOW_CITUS=true' : ''}`,
      fix: 'past one database server: README "Past one PostgreSQL: Citus"',
    };
  }
  const { rows } = await sql<{ version: string; workers: string }>`
    select (select extversion from pg_extension where extname = 'citus') as version,
           (select count(*) from pg_dist_node where noderole = 'primary' and isactive and groupid <> 0)::text as workers
  `.execute(db);
  const version = rows[0]?.version ?? '?';
  const workers = Number(rows[0]?.workers ?? 0);
  const missing = await undistributedTenantTables(db);
  if (missing.length > 0) {
    return {
      name: 'citus',
      status: 'warn',
      detail: `Citus ${version}, ${workers} worker(s); not distributed by team: ${missing.join(', ')}`,
      fix: 'these tables were created without the placement trigger: see README "Past one PostgreSQL: Citus"',
    };
  }
  return {
    name: 'citus',
    status: workers > 0 ? 'ok' : 'info',
    detail: `Citus ${version}, ${workers} worker(s), every tenant table distributed by team`,
    ...(workers > 0 ? {} : { fix: 'shards stay on the coordinator until you add workers (citus_add_node)' }),
  };
}
