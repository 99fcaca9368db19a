// Keeps every active mailbox in sync from worker processes: each round claims the mailboxes due for
// a poll (a lease in the row, SKIP LOCKED, so processes share the work and a dead one's mailboxes come
// back when its lease ends), syncs them, and plans the next poll. A mailbox whose login is refused is
// put in error with a mailbox-errors row (it stops syncing until it is activated again); other
// failures are recorded and retried at the next poll.
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import { recordMailboxError } from '../mailboxes/mailboxes.repository.js';
import type { MailAccess, Mailbox } from '../transport/mail-access.js';
import { classifyMailError } from '../transport/mail-errors.js';
import { syncMailbox } from './imap-sync.js';

const LEASE_MS = 10 * 60_000;
const CONCURRENCY = 4;

export async function claimDueMailboxes(db: Database, now: Date, limit: number, pollSeconds: number) {
  const result = await sql<Mailbox>`
    update mailboxes m set sync_leased_until = ${new Date(now.getTime() + LEASE_MS)},
      next_sync_at = ${new Date(now.getTime() + pollSeconds * 1000)}
    where (m.team_id, m.uuid) in (
      select team_id, uuid from mailboxes
      where status = 'active' and next_sync_at <= ${now} and (sync_leased_until is null or sync_leased_until <= ${now})
      order by next_sync_at limit ${limit}
      for update skip locked
    )
    returning m.*
  `.execute(db);
  return result.rows;
}

export function startMailboxSync(deps: { db: Database; mail: MailAccess; config: Config; log: Logger }) {
  const { db, mail, config, log } = deps;
  let stopped = false;
  let running: Promise<void> | undefined;
  const round = async () => {
    const due = await claimDueMailboxes(
      db,
      new Date(),
      config.email.syncMailboxesPerProcess,
      config.email.syncPollSeconds,
    );
    const queue = [...due];
    const work = async () => {
      for (let mailbox = queue.shift(); mailbox && !stopped; mailbox = queue.shift()) {
        try {
          await syncMailbox(
            { db, mail, batchSize: config.email.syncBatchSize, historyDays: config.email.syncHistoryDays },
            mailbox,
            new Date(),
          );
        } catch (error) {
          const failure = classifyMailError(error);
          await recordMailboxError(
            db,
            mailbox,
            failure.kind === 'auth' ? 'auth' : 'sync',
            `IMAP: ${failure.message}`,
            'sync',
          ).catch((e) => log.error({ err: e }, 'recording a mailbox error failed'));
        } finally {
          await db
            .updateTable('mailboxes')
            .set({ sync_leased_until: null })
            .where('team_id', '=', mailbox.team_id)
            .where('uuid', '=', mailbox.uuid)
            .execute()
            .catch(() => {});
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, work));
  };
  const tick = () => {
    if (stopped) return;
    running = round()
      .catch((error) => log.error({ err: error }, 'mailbox sync round failed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, Math.min(config.email.syncPollSeconds * 1000, 15_000));
      });
  };
  let timer: NodeJS.Timeout | undefined = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
