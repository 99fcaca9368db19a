// Mailboxes: connecting a team's SMTP/IMAP, Gmail or Outlook account to a sender profile, checking
// that it can log in, switching it on and off, and deleting it (optionally handing its sender's e-mail
// steps to another mailbox). Passwords and tokens are sealed before they are stored and never leave.

import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import type { AuthContext } from '../../../http/auth.js';
import { AppError, conflict, invalidField, notFound } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../../lib/pagination.js';
import type { SecretBox } from '../../../lib/secrets.js';
import { resumeSenderActions } from '../../enrollments/sender-pauses.js';
import type { ConnectionSettings, HealthStatus, MailboxProvider, MailboxStatus } from '../email.tables.js';
import { accountEmail, authorizationUrl, exchangeCode, type OAuthProvider } from '../oauth/oauth-client.js';
import { requireTrackingDomainRef } from '../tracking-domains/tracking-domains.service.js';
import { type MailboxSecrets, openSecrets, sealSecrets } from '../transport/credentials.js';
import type { MailAccess } from '../transport/mail-access.js';
import { MailFailure } from '../transport/mail-errors.js';
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

type OAuthState = {
  team_id: number;
  user_id: number;
  provider: OAuthProvider;
  sender_profile_uuid: string;
  sender_name?: string;
  automation_daily_limit?: number;
  automation_task_interval?: number;
  expires: number;
};

const REQUIRED_SMTP_SETTINGS = [
  'smtp_host',
  'smtp_port',
  'smtp_password',
  'imap_host',
  'imap_port',
  'imap_password',
];
const OAUTH_STATE_TTL_MS = 30 * 60_000;

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
  const { db, box, mail, config } = deps;

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

  function oauthProvider(provider: OAuthProvider) {
    const settings = config.email.oauth[provider];
    if (!settings.clientId || !settings.clientSecret) {
      const env = provider === 'gmail' ? 'LEADFLOW_GMAIL_CLIENT_ID' : 'LEADFLOW_OUTLOOK_CLIENT_ID';
      throw new AppError(
        'validation_error',
        `${provider} is not configured here: set ${env} and its _CLIENT_SECRET (see the README, "E-mail").`,
        { provider: [`${provider} OAuth client is not configured`] },
      );
    }
    return settings;
  }

  const redirectUri = (provider: OAuthProvider) => `${config.publicUrl}/emails/oauth/${provider}/callback`;

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

    /** The provider's consent URL; the state carries (sealed) who asked and for which sender profile. */
    async startOAuth(
      actor: AuthContext,
      provider: OAuthProvider,
      query: {
        sender_profile_uuid: string;
        sender_name?: string;
        login_hint?: string;
        automation_daily_limit?: number;
        automation_task_interval?: number;
      },
    ) {
      const settings = oauthProvider(provider);
      await requireSender(actor.teamId, query.sender_profile_uuid);
      const state: OAuthState = {
        team_id: actor.teamId,
        user_id: actor.userId,
        provider,
        sender_profile_uuid: query.sender_profile_uuid,
        ...(query.sender_name ? { sender_name: query.sender_name } : {}),
        ...(query.automation_daily_limit !== undefined
          ? { automation_daily_limit: query.automation_daily_limit }
          : {}),
        ...(query.automation_task_interval !== undefined
          ? { automation_task_interval: query.automation_task_interval }
          : {}),
        expires: Date.now() + OAUTH_STATE_TTL_MS,
      };
      const sealed = Buffer.from(box.seal(JSON.stringify(state))).toString('base64url');
      return {
        url: authorizationUrl(settings, {
          redirectUri: redirectUri(provider),
          state: sealed,
          ...(query.login_hint ? { loginHint: query.login_hint } : {}),
        }),
        redirect_uri: redirectUri(provider),
      };
    },

    /**
     * The provider sent the browser back: exchange the code, learn the account, store the tokens sealed
     * and connect (or reconnect) the mailbox. Errors are client errors with a reason to show.
     */
    async finishOAuth(provider: OAuthProvider, query: { code?: string; state?: string; error?: string }) {
      if (query.error)
        throw new AppError('bad_request', `The provider refused the authorisation: ${query.error}`);
      let state: OAuthState;
      try {
        state = JSON.parse(
          box.openText(Buffer.from(query.state ?? '', 'base64url').toString('utf8')),
        ) as OAuthState;
      } catch {
        throw new AppError('bad_request', 'The authorisation link is not valid; start again from Leadflow.');
      }
      if (state.provider !== provider || state.expires < Date.now()) {
        throw new AppError('bad_request', 'The authorisation link has expired; start again from Leadflow.');
      }
      if (!query.code) throw new AppError('bad_request', 'The provider sent no authorisation code.');
      const settings = oauthProvider(provider);
      let tokens: Awaited<ReturnType<typeof exchangeCode>>;
      let email: string;
      try {
        tokens = await exchangeCode(settings, query.code, redirectUri(provider));
        email = await accountEmail(settings, tokens);
      } catch (error) {
        const why = error instanceof MailFailure ? error.message : String(error);
        throw new AppError('bad_request', `Connecting the ${provider} account failed: ${why}`);
      }
      if (!tokens.refresh_token) {
        throw new AppError(
          'bad_request',
          `${provider} sent no refresh token; remove Leadflow's access in the account settings and connect again.`,
        );
      }
      const sealed = sealSecrets(box, {
        kind: 'oauth',
        refresh_token: tokens.refresh_token,
        access_token: tokens.access_token,
        expires_at: Date.now() + (tokens.expires_in ?? 3600) * 1000,
      });
      const connection: ConnectionSettings = {
        smtp_host: settings.smtp.host,
        smtp_port: settings.smtp.port,
        smtp_secure: settings.smtp.secure,
        smtp_username: email,
        imap_host: settings.imap.host,
        imap_port: settings.imap.port,
        imap_secure: settings.imap.secure,
        imap_username: email,
      };
      const existing = await repo.selectMailboxByEmail(db, state.team_id, email);
      if (existing) {
        // Reconnecting (a revoked token, another scope): new tokens, same mailbox and history.
        const row = await repo.updateMailbox(db, state.team_id, existing.uuid, {
          secrets: sealed,
          connection_settings: connection,
        });
        mail.forget(existing.uuid);
        return mailboxOut(await verify(row as repo.MailboxRow, true));
      }
      if (!(await repo.senderExists(db, state.team_id, state.sender_profile_uuid))) {
        throw new AppError('bad_request', 'The sender profile this mailbox was for no longer exists.');
      }
      const row = await insertAndVerify({
        team_id: state.team_id,
        uuid: newId(),
        user_id: state.user_id,
        sender_profile_uuid: state.sender_profile_uuid,
        email,
        sender_name: state.sender_name ?? email,
        provider: provider as MailboxProvider,
        status: 'inactive',
        automation_daily_limit: state.automation_daily_limit ?? 50,
        automation_task_interval: state.automation_task_interval ?? 120,
        custom_tracking_domain_uuid: null,
        connection_settings: connection,
        secrets: sealed,
        send_status: 'pending',
        sync_status: 'pending',
      });
      return mailboxOut(row);
    },
  };
}

export type MailboxesService = ReturnType<typeof createMailboxesService>;
