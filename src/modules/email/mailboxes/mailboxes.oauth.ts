// Gmail and Outlook mailboxes connect through OAuth2: Leadflow sends the browser to the provider's
// consent page with a sealed state (who asked, for which sender profile), and the provider sends it back
// with a code that becomes sealed tokens and a connected (or reconnected) mailbox.
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import type { AuthContext } from '../../../http/auth.js';
import { AppError } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import type { SecretBox } from '../../../lib/secrets.js';
import type { ConnectionSettings, MailboxProvider } from '../email.tables.js';
import { accountEmail, authorizationUrl, exchangeCode, type OAuthProvider } from '../oauth/oauth-client.js';
import { sealSecrets } from '../transport/credentials.js';
import type { MailAccess } from '../transport/mail-access.js';
import { MailFailure } from '../transport/mail-errors.js';
import { type MailboxConnections, mailboxOut } from './mailboxes.connect.js';
import * as repo from './mailboxes.repository.js';

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

const OAUTH_STATE_TTL_MS = 30 * 60_000;

export function createMailboxOAuth(
  deps: { db: Database; box: SecretBox; mail: MailAccess; config: Config },
  connections: MailboxConnections,
) {
  const { db, box, mail, config } = deps;
  const { requireSender, verify, insertAndVerify } = connections;

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
