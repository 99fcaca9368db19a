// What creating, fixing and reconnecting a mailbox share: its sender profile must be the team's, and
// a stored mailbox is logged in to on both servers before it counts as active.
import type { Database } from '../../../db/database.js';
import { conflict, invalidField } from '../../../lib/errors.js';
import { resumeSenderActions } from '../../enrollments/sender-pauses.js';
import type { HealthStatus, MailboxStatus } from '../email.tables.js';
import type { MailAccess } from '../transport/mail-access.js';
import * as repo from './mailboxes.repository.js';

/** What the API shows of a mailbox: everything but the sealed secrets and the internal pacing. */
export function mailboxOut(row: repo.MailboxRow) {
  return {
    uuid: row.uuid,
    team_id: row.team_id,
    user_id: row.user_id,
    sender_profile_uuid: row.sender_profile_uuid,
    email: row.email,
    sender_name: row.sender_name,
    provider: row.provider,
    status: row.status,
    automation_daily_limit: row.automation_daily_limit,
    automation_task_interval: row.automation_task_interval,
    custom_tracking_domain_uuid: row.custom_tracking_domain_uuid,
    connection_settings: row.connection_settings,
    send_status: row.send_status,
    sync_status: row.sync_status,
    last_send_at: row.last_send_at,
    last_sync_at: row.last_sync_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createMailboxConnections(deps: { db: Database; mail: MailAccess }) {
  const { db, mail } = deps;

  async function requireSender(teamId: number, senderUuid: string) {
    if (!(await repo.senderExists(db, teamId, senderUuid))) {
      throw invalidField(
        'sender_profile_uuid',
        'sender_profile_uuid does not name one of your sender profiles.',
      );
    }
  }

  /**
   * Logs in to both servers and stores the outcome: active when both work, else error with a
   * mailbox-errors row per failing side. Parked e-mail steps of the sender resume when it works.
   */
  async function verify(row: repo.MailboxRow, wantActive: boolean): Promise<repo.MailboxRow> {
    const check = await mail.check(row);
    const send: HealthStatus = check.smtp ? 'error' : 'ok';
    const sync: HealthStatus = check.imap ? 'error' : 'ok';
    const status: MailboxStatus = check.smtp || check.imap ? 'error' : wantActive ? 'active' : 'inactive';
    const updated = await db.transaction().execute(async (trx) => {
      if (check.smtp) {
        await repo.recordMailboxError(trx, row, check.auth ? 'auth' : 'send', `SMTP: ${check.smtp}`, 'send');
      }
      if (check.imap) {
        await repo.recordMailboxError(trx, row, check.auth ? 'auth' : 'sync', `IMAP: ${check.imap}`, 'sync');
      }
      const saved = await repo.updateMailbox(trx, row.team_id, row.uuid, {
        status,
        send_status: send,
        sync_status: sync,
      });
      if (status === 'active') {
        await resumeSenderActions(trx, row.team_id, row.sender_profile_uuid, [
          'no_mailbox',
          'mailbox_unavailable',
        ]);
      }
      return saved;
    });
    mail.forget(row.uuid);
    return updated ?? row;
  }

  async function insertAndVerify(values: repo.NewMailbox) {
    const inserted = await db.transaction().execute(async (trx) => {
      const row = await repo.insertMailbox(trx, values);
      if (!row) {
        const existing = await repo.selectMailboxByEmail(trx, values.team_id, values.email);
        throw conflict(`A mailbox for ${values.email} is already connected.`, { uuid: existing?.uuid });
      }
      await repo.refreshSenderMailbox(trx, values.team_id, values.sender_profile_uuid);
      return row;
    });
    return verify(inserted, true);
  }

  return { requireSender, verify, insertAndVerify };
}

export type MailboxConnections = ReturnType<typeof createMailboxConnections>;
