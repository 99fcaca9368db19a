// Keeps every active mailbox in sync from worker processes: each round claims the mailboxes due for
// a poll (a lease in the row, SKIP LOCKED, so processes share the work and a dead one's mailboxes come
// back when its lease ends), syncs them, and plans the next poll. A mailbox whose login is refused is
// put in error with a mailbox-errors row (it stops syncing until it is activated again); other
// failures are recorded and retried at the next poll. Where the server offers IMAP IDLE (and
// LEADFLOW_EMAIL_SYNC_IDLE is on), a mailbox this process synced is also watched: new mail is synced
// at once instead of at the next poll (sync/idle-watch.ts); the poll stays as the safety net.
import { type SqlBool, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import { claimAcrossTeams } from '../../../db/team-claims.js';
import { recordMailboxError } from '../mailboxes/mailboxes.repository.js';
import type { MailAccess, Mailbox } from '../transport/mail-access.js';
import { classifyMailError } from '../transport/mail-errors.js';
import { type IdleWatch, watchInbox } from './idle-watch.js';
import { syncMailbox } from './imap-sync.js';

const LEASE_MS = 10 * 60_000;
const CONCURRENCY = 4;

export async function claimDueMailboxes(db: Database, now: Date, limit: number, pollSeconds: number) {
  const due = (alias: 't' | 'd') => {
    const c = (column: string) => sql.ref(`${alias}.${column}`);
    return sql<SqlBool>`${c('status')} = 'active' and ${c('next_sync_at')} <= ${now}
      and (${c('sync_leased_until')} is null or ${c('sync_leased_until')} <= ${now})`;
  };
  return claimAcrossTeams({
    db,
    mark: 'mailbox-sync-claim',
    table: 'mailboxes',
    due: due('t'),
    order: sql`t.next_sync_at`,
    limit,
    async claim(teamId, teamLimit) {
      const result = await sql<Mailbox>`
        update mailboxes m set sync_leased_until = ${new Date(now.getTime() + LEASE_MS)},
          next_sync_at = ${new Date(now.getTime() + pollSeconds * 1000)}
        where m.team_id = ${teamId} and m.uuid in (
          select d.uuid from mailboxes d
          where d.team_id = ${teamId} and ${due('d')}
          order by d.next_sync_at limit ${teamLimit}
          for update skip locked
        )
        returning m.*
      `.execute(db);
      return result.rows;
    },
  });
}

export function startMailboxSync(deps: { db: Database; mail: MailAccess; config: Config; log: Logger }) {
  const { db, mail, config, log } = deps;
  let stopped = false;
  let running: Promise<void> | undefined;
  const watches = new Map<string, IdleWatch | 'starting'>();
  const inFlight = new Map<string, { again: boolean }>();
  const keyOf = (m: Mailbox) => `${m.team_id}:${m.uuid}`;

  async function syncOne(mailbox: Mailbox) {
    try {
      await syncMailbox(
        { db, mail, batchSize: config.email.syncBatchSize, historyDays: config.email.syncHistoryDays },
        mailbox,
        new Date(),
      );
      return true;
    } catch (error) {
      const failure = classifyMailError(error);
      await recordMailboxError(
        db,
        mailbox,
        failure.kind === 'auth' ? 'auth' : 'sync',
        `IMAP: ${failure.message}`,
        'sync',
        failure.needsAttention,
      ).catch((e) => log.error({ err: e }, 'recording a mailbox error failed'));
      return false;
    }
  }

  /** New mail reported by IDLE: sync the mailbox now (once more if mail arrives meanwhile). */
  async function syncNow(teamId: number, uuid: string) {
    const key = `${teamId}:${uuid}`;
    const running = inFlight.get(key);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    inFlight.set(key, state);
    try {
      while (state.again && !stopped) {
        state.again = false;
        const mailbox = await db
          .selectFrom('mailboxes')
          .selectAll()
          .where('team_id', '=', teamId)
          .where('uuid', '=', uuid)
          .where('status', '=', 'active')
          .executeTakeFirst();
        if (!mailbox) break;
        await syncOne(mailbox);
      }
    } catch (error) {
      log.error({ err: error }, 'mailbox sync on IDLE failed');
    } finally {
      inFlight.delete(key);
    }
  }

  async function watch(mailbox: Mailbox) {
    const key = keyOf(mailbox);
    if (!config.email.syncIdle || stopped || watches.has(key)) return;
    if (watches.size >= config.email.syncMailboxesPerProcess) return;
    watches.set(key, 'starting');
    try {
      const handle = await watchInbox(mail, mailbox, {
        onNew: () => void syncNow(mailbox.team_id, mailbox.uuid),
        onEnd: () => watches.delete(key),
      });
      if (handle && !stopped) watches.set(key, handle);
      else {
        watches.delete(key);
        await handle?.close();
      }
    } catch (error) {
      watches.delete(key);
      log.warn({ err: error, mailbox: mailbox.uuid }, 'IMAP IDLE could not start; polling only');
    }
  }

  /** Ends the watches of mailboxes that are no longer active (deactivated, in error, deleted). */
  async function pruneWatches() {
    const keys = [...watches.keys()];
    if (keys.length === 0) return;
    const active = await db
      .selectFrom('mailboxes')
      .select(['team_id', 'uuid'])
      .where('status', '=', 'active')
      .where(
        'uuid',
        'in',
        keys.map((k) => k.split(':')[1] as string),
      )
      .execute();
    const keep = new Set(active.map((m) => `${m.team_id}:${m.uuid}`));
    for (const key of keys) {
      const handle = watches.get(key);
      if (!keep.has(key) && handle && handle !== 'starting') {
        watches.delete(key);
        await handle.close();
      }
    }
  }

  const round = async () => {
    await pruneWatches();
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
          if (await syncOne(mailbox)) await watch(mailbox);
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
    /** Mailboxes this process watches with IDLE. */
    watching: () => [...watches.values()].filter((w) => w !== 'starting').length,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await Promise.all([...watches.values()].map((w) => (w === 'starting' ? undefined : w.close())));
      watches.clear();
    },
  };
}
