import { randomBytes } from 'node:crypto';
import type { Database, Executor } from '../../db/database.js';
import { hashApiKey } from '../../http/auth.js';
import { AppError, conflict, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageRequest } from '../../lib/pagination.js';
import { type AuthCache, createAuthCache } from './auth-cache.js';
import * as repo from './identity.repository.js';
import { DEMO_KEY_NAME, TEAM_ROLES } from './roles.js';

/** Other modules seed per-team data (default pipeline stages...) when a team is created. */
export type TeamCreatedHook = (trx: Executor, teamId: number) => Promise<void>;

type TeamRow = NonNullable<Awaited<ReturnType<typeof repo.selectTeamById>>>;
type UserRow = NonNullable<Awaited<ReturnType<typeof repo.selectUserById>>>;

export function toTeam(row: TeamRow) {
  return {
    id: row.id,
    cluster_id: 1,
    subscription_id: null,
    license_uuid: null,
    name: row.name,
    color: row.color,
    status: row.status,
    features: row.features,
    credits: {
      activities: row.credits_activities,
      advanced_enrichment: row.credits_advanced_enrichment,
      llm: row.credits_llm,
    },
    config: row.config,
    user_id: row.user_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function toUser(row: UserRow) {
  return {
    id: row.id,
    uuid: row.uuid,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    email_status: row.email_status,
    image_url: row.image_url,
    timezone: row.timezone,
    config: row.config,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

const MIN_KEY_LENGTH = 16;
/** Active (unrevoked) API keys a user may hold through the API; the admin CLI is not limited. */
export const MAX_ACTIVE_API_KEYS = 100;

/** A new secret: `lf_` and 40 URL-safe characters (240 bits). */
function generateApiKey(): string {
  return `lf_${randomBytes(30).toString('base64url')}`;
}

export function createIdentityService(deps: {
  db: Database;
  onTeamCreated?: TeamCreatedHook[];
  /**
   * Grants a team credits through the credit ledger (the enrichment module's, given by the composition
   * root, so identity depends on no module above it).
   */
  grantCredits: (trx: Executor, teamId: number, amount: number) => Promise<unknown>;
  /** Key lookups and user records kept in memory while change notifications are heard. */
  authCache?: AuthCache;
}) {
  const { db } = deps;
  const hooks = deps.onTeamCreated ?? [];
  const authCache = deps.authCache ?? createAuthCache({ ttlMs: 0 });

  async function createTeam(trx: Executor, name: string, ownerId: number) {
    const team = await repo.insertTeam(trx, { name, ownerId });
    await repo.insertMembership(trx, team.id, ownerId, 'owner');
    for (const hook of hooks) await hook(trx, team.id);
    return team;
  }

  async function issueApiKey(trx: Executor, userId: number, name: string, secret?: string) {
    const key = secret ?? generateApiKey();
    if (key.length < MIN_KEY_LENGTH)
      throw invalidField('api_key', `An API key needs at least ${MIN_KEY_LENGTH} characters.`);
    const row = await repo.insertApiKey(trx, {
      userId,
      name,
      keyHash: hashApiKey(key),
      keyPrefix: key.slice(0, 8),
    });
    return { key, row };
  }

  /**
   * A committed change to a user's keys or memberships: this process forgets it at once (the trigger's
   * notification tells the other processes, and this one again a moment later).
   */
  function changed(userId: number): void {
    authCache.invalidate({ user_id: userId });
  }

  async function requireUserByEmail(trx: Executor, email: string) {
    const user = await repo.selectUserByEmail(trx, email);
    if (!user) throw notFound(`User ${email}`);
    return user;
  }

  return {
    /**
     * Creates a user, a team they own, and a first API key. An existing e-mail is a 409 unless
     * `existingUser` says to give that user another team (and another key).
     */
    async createUserWithTeam(input: {
      email: string;
      teamName: string;
      apiKey?: string;
      existingUser?: boolean;
      /** The API key's name; `leadflow demo` names its key DEMO_KEY_NAME, so its user is no owner. */
      keyName?: string;
    }) {
      if (!EMAIL_PATTERN.test(input.email))
        throw invalidField('email', `"${input.email}" is not an e-mail address.`);
      if (!input.teamName.trim()) throw invalidField('team', 'A team name is required.');
      const result = await db.transaction().execute(async (trx) => {
        const existing = await repo.selectUserByEmail(trx, input.email);
        if (existing && !input.existingUser) {
          throw conflict(`A user with the e-mail ${existing.email} exists already (id ${existing.id}).`, {
            email: ['belongs to an existing user'],
          });
        }
        const user = existing ?? (await repo.insertUser(trx, { uuid: newId(), email: input.email }));
        const team = await createTeam(trx, input.teamName.trim(), user.id);
        const { key } = await issueApiKey(trx, user.id, input.keyName ?? 'default', input.apiKey);
        return { user_id: user.id, team_id: team.id, api_key: key };
      });
      changed(result.user_id);
      return result;
    },

    /**
     * First start: create the owner and their team when no user exists but the demo's (`leadflow demo`
     * may run before the first start). Serialised with an advisory lock so two processes starting
     * together create one owner. Returns undefined when an owner exists.
     */
    async bootstrapOwner(input: { email: string; teamName: string; apiKey?: string }) {
      return db.transaction().execute(async (trx) => {
        await repo.lockBootstrap(trx);
        if ((await repo.countUsersBesidesDemo(trx, DEMO_KEY_NAME)) > 0) return undefined;
        const user = await repo.insertUser(trx, { uuid: newId(), email: input.email });
        const team = await createTeam(trx, input.teamName, user.id);
        const { key } = await issueApiKey(trx, user.id, 'bootstrap', input.apiKey);
        return { user_id: user.id, team_id: team.id, api_key: key };
      });
    },

    async createApiKeyForEmail(email: string, name = 'cli') {
      return db.transaction().execute(async (trx) => {
        const user = await requireUserByEmail(trx, email);
        const { key, row } = await issueApiKey(trx, user.id, name);
        return { api_key: key, id: row.id };
      });
    },

    async createApiKey(userId: number, teamId: number, name: string) {
      const { key, row } = await db.transaction().execute(async (trx) => {
        const active = await repo.lockAndCountActiveKeys(trx, userId);
        if (active >= MAX_ACTIVE_API_KEYS) {
          throw conflict(
            `You have ${active} active API keys, the most a user may hold (${MAX_ACTIVE_API_KEYS}); revoke one ` +
              'with DELETE /id/api/api-keys/{id} first.',
          );
        }
        return issueApiKey(trx, userId, name);
      });
      return {
        jti: String(row.id),
        id: row.id,
        user_id: userId,
        team_id: teamId,
        name: row.name,
        last_token: key,
        created_at: row.created_at,
      };
    },

    async listApiKeys(userId: number, page: PageRequest) {
      const { rows, total } = await repo.selectApiKeysOfUser(db, userId, page);
      return envelope(rows, total, page);
    },

    async revokeApiKey(userId: number, apiKeyId: number) {
      if (!(await repo.revokeApiKey(db, userId, apiKeyId))) throw notFound('API key');
      changed(userId);
    },

    async revokeApiKeyById(apiKeyId: number) {
      const userId = await repo.selectApiKeyOwner(db, apiKeyId);
      if (userId === undefined || !(await repo.revokeApiKey(db, userId, apiKeyId)))
        throw notFound(`Active API key ${apiKeyId}`);
      changed(userId);
    },

    async addMember(email: string, teamId: number, role: string = 'member') {
      if (!(TEAM_ROLES as readonly string[]).includes(role)) {
        throw invalidField('role', `role must be one of ${TEAM_ROLES.join(', ')} (got "${role}").`);
      }
      const result = await db.transaction().execute(async (trx) => {
        const user = await requireUserByEmail(trx, email);
        if (!(await repo.selectTeamById(trx, teamId))) throw notFound(`Team ${teamId}`);
        await repo.insertMembership(trx, teamId, user.id, role);
        return { user_id: user.id, team_id: teamId };
      });
      changed(result.user_id);
      return result;
    },

    async addCredits(teamId: number, amount: number) {
      if (!Number.isInteger(amount))
        throw invalidField('amount', 'amount must be a whole number of credits.');
      // Through the credit ledger: the grant is a row, and the balance never goes below 0.
      const team = await db.transaction().execute(async (trx) => {
        await deps.grantCredits(trx, teamId, amount);
        return repo.selectTeamById(trx, teamId);
      });
      if (!team) throw notFound(`Team ${teamId}`);
      return { team_id: team.id, credits: toTeam(team).credits };
    },

    // GET /id/api/users/current is what integrations call to check their key, often on every run; the
    // user record changes rarely, so it is served from the auth cache.
    async getCurrentUser(userId: number) {
      return authCache.user(userId, async () => {
        const user = await repo.selectUserById(db, userId);
        if (!user) throw new AppError('auth_exception', 'The user of this API key no longer exists.');
        return toUser(user);
      });
    },

    async listTeams(userId: number, page: PageRequest) {
      const { rows, total } = await repo.selectTeamsOfUser(db, userId, page);
      return envelope(rows.map(toTeam), total, page);
    },

    async getTeam(userId: number, teamId: number) {
      const team = await repo.selectTeamOfUser(db, userId, teamId);
      if (!team) throw notFound(`Team ${teamId}`);
      return toTeam(team);
    },

    /** The identity of an API key hash, from the auth cache when it can be trusted. */
    identifyApiKey: (keyHash: string) =>
      authCache.identify(keyHash, (hash) => repo.selectApiKeyIdentity(db, hash)),
    authCache,
    touchApiKey: (apiKeyId: number) => repo.touchApiKey(db, apiKeyId),
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
