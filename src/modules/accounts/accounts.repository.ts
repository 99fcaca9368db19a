// SQL of sign-in: passwords, sessions, one-time password tokens, invites and team members.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { TeamRole } from '../identity/roles.js';

export async function selectPasswordHash(db: Executor, userId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('user_passwords')
    .select('hash')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.hash;
}

export async function upsertPassword(db: Executor, userId: number, hash: string): Promise<void> {
  await db
    .insertInto('user_passwords')
    .values({ user_id: userId, hash, updated_at: new Date() })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ hash, updated_at: new Date() }))
    .execute();
}

export async function insertSession(
  db: Executor,
  session: {
    tokenHash: string;
    userId: number;
    csrfToken: string;
    userAgent: string | null;
    expiresAt: Date;
  },
) {
  return db
    .insertInto('user_sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      csrf_token: session.csrfToken,
      user_agent: session.userAgent,
      last_seen_at: new Date(),
      expires_at: session.expiresAt,
    })
    .returning(['created_at', 'expires_at'])
    .executeTakeFirstOrThrow();
}

/** A live session with the user's teams in the order they joined them (the first is the default). */
export async function selectSessionIdentity(db: Executor, tokenHash: string) {
  return db
    .selectFrom('user_sessions as s')
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', new Date())
    .select([
      's.user_id as userId',
      's.csrf_token as csrfToken',
      's.last_seen_at as lastSeenAt',
      's.expires_at as expiresAt',
      sql<number[]>`array(
        select m.team_id from team_members m where m.user_id = s.user_id order by m.created_at, m.team_id
      )`.as('teamIds'),
    ])
    .executeTakeFirst();
}

export async function touchSession(db: Executor, tokenHash: string, expiresAt: Date): Promise<void> {
  await db
    .updateTable('user_sessions')
    .set({ last_seen_at: new Date(), expires_at: expiresAt })
    .where('token_hash', '=', tokenHash)
    .execute();
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('user_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteSessionsOfUser(db: Executor, userId: number, except?: string): Promise<number> {
  let query = db.deleteFrom('user_sessions').where('user_id', '=', userId);
  if (except) query = query.where('token_hash', '<>', except);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertPasswordToken(
  db: Executor,
  token: { tokenHash: string; userId: number; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('password_tokens')
    .values({
      token_hash: token.tokenHash,
      user_id: token.userId,
      expires_at: token.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Marks an unused, unexpired token used and answers its user (one redemption, even under races). */
export async function consumePasswordToken(db: Executor, tokenHash: string): Promise<number | undefined> {
  const row = await db
    .updateTable('password_tokens')
    .set({ used_at: new Date() })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** Earlier links of a user stop working when a new one is made. */
export async function expirePasswordTokensOfUser(db: Executor, userId: number): Promise<void> {
  await db
    .updateTable('password_tokens')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

export async function selectRole(db: Executor, teamId: number, userId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('team_members')
    .select('role')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

export async function selectTeamsWithRoles(db: Executor, userId: number) {
  return db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .where('m.user_id', '=', userId)
    .select((eb) => ['t.id', 't.name', eb.ref('m.role').$castTo<TeamRole>().as('role')])
    .orderBy('m.created_at')
    .orderBy('m.team_id')
    .execute();
}

export async function selectMembers(db: Executor, teamId: number) {
  return db
    .selectFrom('team_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.team_id', '=', teamId)
    .select((eb) => [
      'u.id as user_id',
      'u.email',
      'u.first_name',
      'u.last_name',
      eb.ref('m.role').$castTo<TeamRole>().as('role'),
      'm.created_at',
    ])
    .orderBy('m.created_at')
    .orderBy('u.id')
    .execute();
}

export async function countOwners(db: Executor, teamId: number): Promise<number> {
  const row = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('team_id', '=', teamId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteMember(db: Executor, teamId: number, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertInvite(
  db: Executor,
  invite: {
    teamId: number;
    uuid: string;
    email: string;
    role: string;
    tokenHash: string;
    invitedBy: number;
    expiresAt: Date;
  },
) {
  return db
    .insertInto('team_invites')
    .values({
      team_id: invite.teamId,
      uuid: invite.uuid,
      email: invite.email,
      role: invite.role,
      token_hash: invite.tokenHash,
      invited_by: invite.invitedBy,
      expires_at: invite.expiresAt,
      accepted_at: null,
    })
    .returning((eb) => [
      'uuid',
      'email',
      eb.ref('role').$castTo<TeamRole>().as('role'),
      'created_at',
      'expires_at',
    ])
    .executeTakeFirstOrThrow();
}

export async function selectPendingInvites(db: Executor, teamId: number) {
  return db
    .selectFrom('team_invites')
    .where('team_id', '=', teamId)
    .where('accepted_at', 'is', null)
    .select((eb) => [
      'uuid',
      'email',
      eb.ref('role').$castTo<TeamRole>().as('role'),
      'created_at',
      'expires_at',
    ])
    .orderBy('created_at', 'desc')
    .execute();
}

export async function deleteInvite(db: Executor, teamId: number, uuid: string): Promise<boolean> {
  const result = await db
    .deleteFrom('team_invites')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function selectOpenInvite(db: Executor, tokenHash: string) {
  return db
    .selectFrom('team_invites as i')
    .innerJoin('teams as t', 't.id', 'i.team_id')
    .where('i.token_hash', '=', tokenHash)
    .where('i.accepted_at', 'is', null)
    .where('i.expires_at', '>', new Date())
    .select((eb) => [
      'i.team_id',
      'i.uuid',
      'i.email',
      eb.ref('i.role').$castTo<TeamRole>().as('role'),
      't.name as team_name',
    ])
    .executeTakeFirst();
}

export async function markInviteAccepted(db: Executor, tokenHash: string): Promise<boolean> {
  const result = await db
    .updateTable('team_invites')
    .set({ accepted_at: new Date() })
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function updateTeamSettings(
  db: Executor,
  teamId: number,
  changes: { name?: string | undefined; timezone?: string | undefined },
): Promise<void> {
  await db
    .updateTable('teams')
    .set((eb) => ({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.timezone !== undefined
        ? {
            config: sql<string>`${eb.ref('config')} || jsonb_build_object('timezone', ${changes.timezone}::text)`,
          }
        : {}),
      updated_at: new Date(),
    }))
    .where('id', '=', teamId)
    .execute();
}

export async function setUserName(
  db: Executor,
  userId: number,
  firstName: string | null,
  lastName: string | null,
) {
  await db
    .updateTable('users')
    .set({ first_name: firstName, last_name: lastName, updated_at: new Date() })
    .where('id', '=', userId)
    .execute();
}
