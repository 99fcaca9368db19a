// Events are history, but not forever: a finished export alone records one event per contact, so
// without pruning the outbox grows by millions of rows a day. A scheduled job deletes events older
// than the retention period (LEADFLOW_EVENT_RETENTION_DAYS), team by team in short batches; their
// webhook delivery log goes with them (foreign key cascade).
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { pruneTeamByTeam, RETENTION_BATCH } from '../../db/retention.js';
import { handleJob, jobType } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';

export const pruneEventsJob = jobType('events.pruneOld', Type.Object({}), {
  schedule: '23 * * * *',
  maxAttempts: 3,
});

/**
 * Deletes the events recorded before `before` and returns how many. The age is read from the event's
 * time-ordered uuid, so each team's batch is a range of its primary key. An event whose webhook
 * delivery is still pending or retrying is kept until that delivery ends.
 */
export async function pruneEvents(db: Database, before: Date): Promise<number> {
  return pruneTeamByTeam(db, before, async (teamId, bound) => {
    const result = await sql`
      delete from events e
      where e.team_id = ${teamId} and e.uuid in (
        select o.uuid from events o
        where o.team_id = ${teamId} and o.uuid < ${bound}::uuid
          and not exists (
            select 1 from webhook_deliveries d
            where d.team_id = o.team_id and d.event_uuid = o.uuid and d.status in ('pending', 'retrying')
          )
        order by o.uuid
        limit ${RETENTION_BATCH}
      )
    `.execute(db);
    return Number(result.numAffectedRows ?? 0);
  });
}

export function pruneEventsHandler(deps: { db: Database; clock: Clock; retentionDays: number }) {
  return handleJob(pruneEventsJob, async (_payload, { log }) => {
    if (deps.retentionDays === 0) return;
    const before = new Date(deps.clock.now().getTime() - deps.retentionDays * 86_400_000);
    const deleted = await pruneEvents(deps.db, before);
    if (deleted > 0) log.info({ deleted, before }, 'pruned old events');
  });
}
