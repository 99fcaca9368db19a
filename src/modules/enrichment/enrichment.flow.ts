// gs_enqueue_for_enrichment: the automation engine queues a flow's contacts through the same queue and
// credits as the API, in the engine batch's transaction (kept apart from the service so the engine
// imports only what it needs).
import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import { reserveCredits } from './credits.js';
import { insertQueueEntries } from './enrichment.repository.js';
import { scheduleEnrichment } from './enrichment.worker.js';

/**
 * gs_enqueue_for_enrichment: queues the flow's contacts (blacklisted ones and contacts without a
 * LinkedIn reference are skipped; `olderThanSeconds` keeps only contacts not enriched within that time)
 * in the engine batch's transaction. Credits are reserved as for the API; contacts the balance cannot
 * cover are recorded in the queue as `failed` with the reason, so the flow never waits on credits.
 */
export async function queueLeadsFromFlow(
  trx: Executor,
  teamId: number,
  items: Array<{ leadUuid: string; olderThanSeconds: number | null }>,
  now: Date,
): Promise<number> {
  let total = 0;
  const groups = new Map<number | null, string[]>();
  for (const item of items)
    groups.set(item.olderThanSeconds, [...(groups.get(item.olderThanSeconds) ?? []), item.leadUuid]);
  for (const [olderThan, leadUuids] of groups) {
    const recent =
      olderThan === null
        ? sql<SqlBool>`true`
        : sql<SqlBool>`not exists (
            select 1 from enrichment_queue d
            where d.team_id = l.team_id and d.object_uuid = l.uuid and d.status = 'done'
              and d.finished_at > ${new Date(now.getTime() - olderThan * 1000)})`;
    const where = sql<SqlBool>`l.uuid = any(${leadUuids}::uuid[]) and not l.is_blacklisted and ${recent}`;
    const requestUuid = newId();
    const { queued } = await insertQueueEntries(trx, teamId, 'lead', 'l', where, {
      refresh: false,
      source: 'flow',
      requestUuid,
      now,
    });
    if (queued === 0) continue;
    const locked = await sql<{ balance: string }>`
      select credits_advanced_enrichment as balance from teams where id = ${teamId} for update
    `.execute(trx);
    const covered = Math.min(queued, Number(locked.rows[0]?.balance ?? 0));
    if (covered > 0) await reserveCredits(trx, teamId, covered, requestUuid, 'contacts');
    if (covered < queued) {
      const message = `Not enough enrichment credits: ${queued} needed, ${covered} available.`;
      await sql`
        update enrichment_queue set status = 'failed', error = ${message}, finished_at = ${now}
        where team_id = ${teamId} and uuid in (
          select uuid from enrichment_queue
          where team_id = ${teamId} and request_uuid = ${requestUuid} and status = 'pending'
          order by uuid desc limit ${queued - covered}
        )
      `.execute(trx);
    }
    if (covered > 0) await scheduleEnrichment(trx, teamId);
    total += covered;
  }
  return total;
}
