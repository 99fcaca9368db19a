// Sign-in for the web application: e-mail + password, browser sessions kept in PostgreSQL, one-time
// password links (first start, `leadflow admin reset-password`), team members and invites.
// Browsers never hold an API key: a session cookie plus a CSRF token stand in for one (http/auth.ts).
import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { hashApiKey as hashSecret } from '../../http/auth.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { isValidTimeZone } from '../../lib/schedule.js';
import type { AuthCache } from '../identity/auth-cache.js';
import * as identityRepo from '../identity/identity.repository.js';
import { toUser } from '../identity/identity.service.js';
import { TEAM_ROLES, type TeamRole } from '../identity/roles.js';
import * as repo from './accounts.repository.js';
import {
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  verifyDecoy,
  verifyPassword,
} from './passwords.js';

export const SESSION_DAYS = 30;
const DAY_MS = 86_400_000;
/** last_seen_at / sliding expiry are written at most this often per session. */
const TOUCH_EVERY_MS = 60_000;
const PASSWORD_LINK_DAYS = 7;
const INVITE_DAYS = 14;
const SIGN_IN_FAILED = 'The e-mail or password is not right.';

export type SessionIdentity = { userId: number; teamIds: number[]; csrfToken: string };

function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function checkPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw invalidField(
      field,
      `${field} must have ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters (got ${password.length}).`,
    );
  }
}

export function createAccountsService(deps: { db: Database; publicUrl: string; authCache?: AuthCache }) {
  const { db } = deps;
  const base = deps.publicUrl.replace(/\/+$/, '');

  async function startSession(userId: number, userAgent: string | null) {
    const token = newToken();
    const csrfToken = newToken();
    const row = await repo.insertSession(db, {
      tokenHash: hashSecret(token),
      userId,
      csrfToken,
      userAgent: userAgent ? userAgent.slice(0, 300) : null,
      expiresAt: new Date(Date.now() + SESSION_DAYS * DAY_MS),
    });
    return { token, csrfToken, expiresAt: row.expires_at };
  }

  async function sessionView(userId: number, csrfToken: string) {
    const user = await identityRepo.selectUserById(db, userId);
    if (!user) throw new AppError('auth_exception', 'This session has ended.');
    const teams = await repo.selectTeamsWithRoles(db, userId);
    return { user: toUser(user), csrf_token: csrfToken, teams };
  }

  async function signedIn(userId: number, userAgent: string | null) {
    const session = await startSession(userId, userAgent);
    return { token: session.token, body: await sessionView(userId, session.csrfToken) };
  }

  function inviteUrl(token: string) {
    return `${base}/invite#token=${token}`;
  }

  async function requireOpenInvite(token: string) {
    const invite = await repo.selectOpenInvite(db, hashSecret(token));
    if (!invite) throw notFound('Invite (it may have been used, revoked or have expired)');
    return invite;
  }

  return {
    async signIn(input: { email: string; password: string; userAgent: string | null }) {
      const user = await identityRepo.selectUserByEmail(db, input.email.trim());
      const hash = user ? await repo.selectPasswordHash(db, user.id) : undefined;
      const ok = hash ? await verifyPassword(input.password, hash) : await verifyDecoy(input.password);
      if (!user || !ok) throw new AppError('auth_exception', SIGN_IN_FAILED);
      return signedIn(user.id, input.userAgent);
    },

    /**
     * The session of a cookie value, sliding its expiry forward at most once a minute. Kept by the auth
     * cache like an API key (an ended session notifies, migration 1280), so a web request usually costs
     * no database round trip to authenticate.
     */
    async identifySession(token: string): Promise<SessionIdentity | undefined> {
      const tokenHash = hashSecret(token);
      const load = async () => (await repo.selectSessionIdentity(db, tokenHash)) ?? false;
      const row = deps.authCache ? await deps.authCache.session(tokenHash, load) : await load();
      if (!row || row.expiresAt.getTime() <= Date.now()) return undefined;
      if (Date.now() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
        // The cached copy follows, so the next requests neither touch again nor see the old expiry.
        row.lastSeenAt = new Date();
        row.expiresAt = new Date(Date.now() + SESSION_DAYS * DAY_MS);
        await repo.touchSession(db, tokenHash, row.expiresAt);
      }
      return { userId: row.userId, teamIds: row.teamIds, csrfToken: row.csrfToken };
    },

    sessionView,

    // Each way a session ends drops it from this process's cache at once; other processes hear the
    // trigger's notification (migration 1280).
    async signOut(token: string) {
      await repo.deleteSession(db, hashSecret(token));
      deps.authCache?.invalidate({ key_hash: hashSecret(token) });
    },

    async signOutEverywhere(userId: number) {
      const ended = await repo.deleteSessionsOfUser(db, userId);
      deps.authCache?.invalidate({ user_id: userId });
      return { ended };
    },

    /**
     * A one-time link that sets the user's password (first start, admin reset). Earlier links stop
     * working; with `endSessions` the user's sessions end too (a reset after a lost password).
     */
    async issuePasswordLink(email: string, options: { endSessions?: boolean } = {}) {
      const user = await identityRepo.selectUserByEmail(db, email);
      if (!user) throw notFound(`User ${email}`);
      const token = newToken();
      const expiresAt = new Date(Date.now() + PASSWORD_LINK_DAYS * DAY_MS);
      await db.transaction().execute(async (trx) => {
        await repo.expirePasswordTokensOfUser(trx, user.id);
        await repo.insertPasswordToken(trx, { tokenHash: hashSecret(token), userId: user.id, expiresAt });
        if (options.endSessions) await repo.deleteSessionsOfUser(trx, user.id);
      });
      if (options.endSessions) deps.authCache?.invalidate({ user_id: user.id });
      return { user_id: user.id, url: `${base}/welcome#token=${token}`, expires_at: expiresAt };
    },

    async redeemPasswordLink(input: { token: string; password: string; userAgent: string | null }) {
      checkPassword(input.password);
      const hash = await hashPassword(input.password);
      const userId = await db.transaction().execute(async (trx) => {
        const owner = await repo.consumePasswordToken(trx, hashSecret(input.token));
        if (owner === undefined) throw notFound('Password link (it may have been used or have expired)');
        await repo.upsertPassword(trx, owner, hash);
        await repo.deleteSessionsOfUser(trx, owner);
        return owner;
      });
      deps.authCache?.invalidate({ user_id: userId });
      return signedIn(userId, input.userAgent);
    },

    async changePassword(userId: number, input: { current: string; next: string; keepToken?: string }) {
      checkPassword(input.next, 'new_password');
      const hash = await repo.selectPasswordHash(db, userId);
      if (!hash || !(await verifyPassword(input.current, hash))) {
        const message = 'current_password is not your password.';
        throw new AppError('access_denied', message, { current_password: [message] });
      }
      await repo.upsertPassword(db, userId, await hashPassword(input.next));
      await repo.deleteSessionsOfUser(db, userId, input.keepToken ? hashSecret(input.keepToken) : undefined);
      deps.authCache?.invalidate({ user_id: userId });
    },

    /** Owners manage members, invites, API keys and webhooks of their team. */
    async requireOwner(userId: number, teamId: number) {
      const role = await repo.selectRole(db, teamId, userId);
      if (role === undefined) throw notFound(`Team ${teamId}`);
      if (role !== 'owner') throw new AppError('access_denied', 'Only an owner of this team may do this.');
    },

    async requireMember(userId: number, teamId: number) {
      if ((await repo.selectRole(db, teamId, userId)) === undefined) throw notFound(`Team ${teamId}`);
    },

    async updateTeam(teamId: number, changes: { name?: string | undefined; timezone?: string | undefined }) {
      if (changes.timezone !== undefined && !isValidTimeZone(changes.timezone))
        throw invalidField('timezone', `timezone must be an IANA time zone (got "${changes.timezone}").`);
      await repo.updateTeamSettings(db, teamId, changes);
    },

    async listMembers(teamId: number) {
      return { data: await repo.selectMembers(db, teamId) };
    },

    async removeMember(teamId: number, userId: number) {
      await db.transaction().execute(async (trx) => {
        const role = await repo.selectRole(trx, teamId, userId);
        if (role === undefined) throw notFound(`Member ${userId}`);
        if (role === 'owner' && (await repo.countOwners(trx, teamId)) <= 1)
          throw invalidField('user_id', 'A team keeps at least one owner; make another member owner first.');
        await repo.deleteMember(trx, teamId, userId);
      });
      deps.authCache?.invalidate({ user_id: userId });
    },

    async createInvite(teamId: number, invitedBy: number, input: { email: string; role: TeamRole }) {
      if (!(TEAM_ROLES as readonly string[]).includes(input.role))
        throw invalidField('role', `role must be one of ${TEAM_ROLES.join(', ')}.`);
      const token = newToken();
      const invite = await repo.insertInvite(db, {
        teamId,
        uuid: newId(),
        email: input.email.trim().toLowerCase(),
        role: input.role,
        tokenHash: hashSecret(token),
        invitedBy,
        expiresAt: new Date(Date.now() + INVITE_DAYS * DAY_MS),
      });
      return { ...invite, invite_url: inviteUrl(token) };
    },

    async listInvites(teamId: number) {
      return { data: await repo.selectPendingInvites(db, teamId) };
    },

    async revokeInvite(teamId: number, uuid: string) {
      if (!(await repo.deleteInvite(db, teamId, uuid))) throw notFound('Invite');
    },

    async lookupInvite(token: string) {
      const invite = await requireOpenInvite(token);
      const user = await identityRepo.selectUserByEmail(db, invite.email);
      const hasPassword = user ? (await repo.selectPasswordHash(db, user.id)) !== undefined : false;
      return {
        team_name: invite.team_name,
        email: invite.email,
        role: invite.role,
        has_account: hasPassword,
      };
    },

    /**
     * Joins the invite's team. A new e-mail becomes a user with this password; an existing user with a
     * password proves it is them by giving it (the invite link alone does not take over an account).
     */
    async acceptInvite(input: {
      token: string;
      password: string;
      firstName?: string | undefined;
      lastName?: string | undefined;
      userAgent: string | null;
    }) {
      const invite = await requireOpenInvite(input.token);
      const existing = await identityRepo.selectUserByEmail(db, invite.email);
      const existingHash = existing ? await repo.selectPasswordHash(db, existing.id) : undefined;
      if (existingHash) {
        if (!(await verifyPassword(input.password, existingHash)))
          throw invalidField('password', `password is not the password of ${invite.email}.`);
      } else {
        checkPassword(input.password);
      }
      const newHash = existingHash ? undefined : await hashPassword(input.password);
      const userId = await db.transaction().execute(async (trx) => {
        if (!(await repo.markInviteAccepted(trx, hashSecret(input.token)))) throw notFound('Invite');
        const user = existing ?? (await identityRepo.insertUser(trx, { uuid: newId(), email: invite.email }));
        if (!existing && (input.firstName || input.lastName))
          await repo.setUserName(trx, user.id, input.firstName ?? null, input.lastName ?? null);
        if (newHash) await repo.upsertPassword(trx, user.id, newHash);
        await identityRepo.insertMembership(trx, invite.team_id, user.id, invite.role);
        return user.id;
      });
      deps.authCache?.invalidate({ user_id: userId });
      return signedIn(userId, input.userAgent);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
