// Mailboxes: connecting a team's SMTP/IMAP account to a sender profile (Gmail and Outlook through
// OAuth: mailboxes.oauth.ts), checking that it can log in, switching it on and off, and deleting it
// (optionally handing its sender's e-mail steps to another mailbox). Passwords and tokens are sealed before they are stored and never leave.

import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import type { AuthContext } from '../../../http/auth.js';
import { AppError, invalidField, notFound } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../../lib/pagination.js';
import type { SecretBox } from '../../../lib/secrets.js';
import { resumeSenderActions } from '../../enrollments/sender-pauses.js';
import type { ConnectionSettings } from '../email.tables.js';
import { requireTrackingDomainRef } from '../tracking-domains/tracking-domains.service.js';
import { type MailboxSecrets, openSecrets, sealSecrets } from '../transport/credentials.js';
import type { MailAccess } from '../transport/mail-access.js';
import { createMailboxConnections, mailboxOut } from './mailboxes.connect.js';
import { createMailboxOAuth } from './mailboxes.oauth.js';
import * as repo from './mailboxes.repository.js';

type SettingsInput = ConnectionSettings & { smtp_password?: string; imap_password?: string };

export type CreateMailboxInput = {
  email: string;
  sender_name: string;
  sender_profile_uuid: string;
  connection_settings: SettingsInput;
  automation_daily_limit?: number;
  automation_task_interval?: number;
  custom_tracking_domain_uuid?: string | null;
};

export type UpdateMailboxInput = {
  sender_name?: string;
  sender_profile_uuid?: string;
  connection_settings?: SettingsInput;
  automation_daily_limit?: number;
  automation_task_interval?: number;
  custom_tracking_domain_uuid?: string | null;
};

const REQUIRED_SMTP_SETTINGS = [
  'smtp_host',
  'smtp_port',
  'smtp_password',
  'imap_host',
  'imap_port',
  'imap_password',
];

function publicSettings(input: SettingsInput, email: string): ConnectionSettings {
  return {
    smtp_host: input.smtp_host,
    smtp_port: input.smtp_port,
    smtp_secure: input.smtp_secure ?? input.smtp_port === 465,
    smtp_username: input.smtp_username ?? email,
    imap_host: input.imap_host,
    imap_port: input.imap_port,
    imap_secure: input.imap_secure ?? input.imap_port === 993,
    imap_username: input.imap_username ?? email,
  };
}

export function createMailboxesService(deps: {
  db: Database;
  box: SecretBox;
  mail: MailAccess;
  config: Config;
}) {
  const { db, box, mail } = deps;
  const connections = createMailboxConnections(deps);
  const { requireSender, verify, insertAndVerify } = connections;

  async function requireMailbox(teamId: number, uuid: string) {
    const row = await repo.selectMailbox(db, teamId, uuid);
    if (!row) throw notFound('Mailbox');
    return row;
  }

  /** A server the outbound guard refuses is a 422 naming it, before anything connects or is stored. */
  async function requireAllowedServers(settings: ConnectionSettings) {
    const refusal = await mail.serverRefusal(settings);
    if (refusal) {
      const field = `connection_settings.${refusal.field}`;
      throw invalidField(field, `${field}: ${refusal.message}`);
    }
  }

  return {
    async listMailboxes(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.mailboxSort);
      const { rows, total } = await repo.selectMailboxes(db, teamId, params.filter, page);
      return envelope(rows.map(mailboxOut), total, page);
    },

    async getMailbox(teamId: number, uuid: string) {
      return mailboxOut(await requireMailbox(teamId, uuid));
    },

    async createMailbox(actor: AuthContext, input: CreateMailboxInput) {
      await requireSender(actor.teamId, input.sender_profile_uuid);
      await requireTrackingDomainRef(db, actor.teamId, input.custom_tracking_domain_uuid);
      const settings = input.connection_settings;
      const missing = REQUIRED_SMTP_SETTINGS.filter(
        (key) => settings[key as keyof SettingsInput] === undefined,
      );
      if (missing.length > 0) {
        throw new AppError(
          'validation_error',
          `connection_settings needs ${missing.join(', ')} for an smtp mailbox.`,
          Object.fromEntries(
            missing.map((key) => [`connection_settings.${key}`, [`connection_settings.${key} is required`]]),
          ),
        );
      }
      await requireAllowedServers(settings);
      const email = input.email.trim().toLowerCase();
      const secrets: MailboxSecrets = {
        kind: 'password',
        smtp_password: settings.smtp_password as string,
        imap_password: settings.imap_password as string,
      };
      const row = await insertAndVerify({
        team_id: actor.teamId,
        uuid: newId(),
        user_id: actor.userId,
        sender_profile_uuid: input.sender_profile_uuid,
        email,
        sender_name: input.sender_name.trim(),
        provider: 'smtp',
        status: 'inactive',
        automation_daily_limit: input.automation_daily_limit ?? 50,
        automation_task_interval: input.automation_task_interval ?? 120,
        custom_tracking_domain_uuid: input.custom_tracking_domain_uuid ?? null,
        connection_settings: publicSettings(settings, email),
        secrets: sealSecrets(box, secrets),
        send_status: 'pending',
        sync_status: 'pending',
      });
      return mailboxOut(row);
    },

    async updateMailbox(teamId: number, uuid: string, input: UpdateMailboxInput) {
      const current = await requireMailbox(teamId, uuid);
      if (input.sender_profile_uuid) await requireSender(teamId, input.sender_profile_uuid);
      await requireTrackingDomainRef(db, teamId, input.custom_tracking_domain_uuid);
      let settings: ConnectionSettings | undefined;
      let secrets: string | undefined;
      if (input.connection_settings) {
        if (current.provider !== 'smtp') {
          throw invalidField(
            'connection_settings',
            `connection_settings of a ${current.provider} mailbox come from its provider; connect it again to change them.`,
          );
        }
        const given = input.connection_settings;
        settings = publicSettings({ ...current.connection_settings, ...given }, current.email);
        await requireAllowedServers(settings);
        const old = openSecrets(box, current.secrets);
        const stored =
          old?.kind === 'password'
            ? old
            : { kind: 'password' as const, smtp_password: '', imap_password: '' };
        secrets = sealSecrets(box, {
          kind: 'password',
          smtp_password: given.smtp_password ?? stored.smtp_password,
          imap_password: given.imap_password ?? stored.imap_password,
        });
      }
      const row = await db.transaction().execute(async (trx) => {
        const saved = await repo.updateMailbox(trx, teamId, uuid, {
          ...(input.sender_name !== undefined ? { sender_name: input.sender_name.trim() } : {}),
          ...(input.sender_profile_uuid !== undefined
            ? { sender_profile_uuid: input.sender_profile_uuid }
            : {}),
          ...(input.automation_daily_limit !== undefined
            ? { automation_daily_limit: input.automation_daily_limit }
            : {}),
          ...(input.automation_task_interval !== undefined
            ? { automation_task_interval: input.automation_task_interval }
            : {}),
          ...(input.custom_tracking_domain_uuid !== undefined
            ? { custom_tracking_domain_uuid: input.custom_tracking_domain_uuid }
            : {}),
          ...(settings ? { connection_settings: settings } : {}),
          ...(secrets ? { secrets } : {}),
        });
        if (!saved) throw notFound('Mailbox');
        if (input.sender_profile_uuid && input.sender_profile_uuid !== current.sender_profile_uuid) {
          await repo.refreshSenderMailbox(trx, teamId, current.sender_profile_uuid);
          await repo.refreshSenderMailbox(trx, teamId, input.sender_profile_uuid);
        }
        return saved;
      });
      mail.forget(uuid);
      // New servers or passwords are checked at once; an inactive mailbox stays inactive.
      if (settings) return mailboxOut(await verify(row, current.status !== 'inactive'));
      if (row.status === 'active' && input.sender_profile_uuid) {
        await resumeSenderActions(db, teamId, row.sender_profile_uuid, ['no_mailbox', 'mailbox_unavailable']);
      }
      return mailboxOut(row);
    },

    async activateMailbox(teamId: number, uuid: string) {
      const row = await requireMailbox(teamId, uuid);
      if (row.provider === 'smtp') await requireAllowedServers(row.connection_settings);
      return mailboxOut(await verify(row, true));
    },

    async deactivateMailbox(teamId: number, uuid: string) {
      await requireMailbox(teamId, uuid);
      const row = await repo.updateMailbox(db, teamId, uuid, { status: 'inactive' });
      mail.forget(uuid);
      return mailboxOut(row as repo.MailboxRow);
    },

    async deleteMailbox(
      teamId: number,
      uuid: string,
      options: { automation_reassign_mailboxes?: boolean; automation_mailbox_to_reassign?: string } | null,
    ) {
      const target = options?.automation_mailbox_to_reassign;
      if (options?.automation_reassign_mailboxes && !target) {
        throw invalidField(
          'automation_mailbox_to_reassign',
          'automation_mailbox_to_reassign is required when automation_reassign_mailboxes is true.',
        );
      }
      if (options?.automation_reassign_mailboxes && target === uuid) {
        throw invalidField(
          'automation_mailbox_to_reassign',
          'automation_mailbox_to_reassign must name another mailbox.',
        );
      }
      const resume = await db.transaction().execute(async (trx) => {
        const deleted = await repo.deleteMailbox(trx, teamId, uuid);
        if (!deleted) throw notFound('Mailbox');
        await trx
          .deleteFrom('mailbox_errors')
          .where('team_id', '=', teamId)
          .where('mailbox_uuid', '=', uuid)
          .execute();
        let takeover: repo.MailboxRow | undefined;
        if (options?.automation_reassign_mailboxes && target) {
          const other = await repo.selectMailbox(trx, teamId, target);
          if (!other) {
            throw invalidField(
              'automation_mailbox_to_reassign',
              'automation_mailbox_to_reassign does not name one of your mailboxes.',
            );
          }
          takeover = await repo.updateMailbox(trx, teamId, target, {
            sender_profile_uuid: deleted.sender_profile_uuid,
          });
          if (other.sender_profile_uuid !== deleted.sender_profile_uuid) {
            await repo.refreshSenderMailbox(trx, teamId, other.sender_profile_uuid);
          }
        }
        await repo.refreshSenderMailbox(trx, teamId, deleted.sender_profile_uuid);
        return takeover?.status === 'active' ? takeover.sender_profile_uuid : null;
      });
      mail.forget(uuid);
      if (resume) await resumeSenderActions(db, teamId, resume, ['no_mailbox', 'mailbox_unavailable']);
    },

    async listMailboxErrors(teamId: number, params: PageParams & { filter?: unknown; search?: string }) {
      const page = resolvePage(params, repo.mailboxErrorSort);
      const { rows, total } = await repo.selectMailboxErrors(db, teamId, params.filter, params.search, page);
      return envelope(rows, total, page);
    },

    ...createMailboxOAuth(deps, connections),
  };
}

export type MailboxesService = ReturnType<typeof createMailboxesService>;
