import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import type { ApiKeyIdentity } from '../../http/auth.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../lib/pagination.js';

export async function selectApiKeyIdentity(
  db: Executor,
  keyHash: string,
): Promise<ApiKeyIdentity | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .select([
      'k.id as apiKeyId',
      'k.user_id as userId',
      // Teams in the order the user joined them: the first one is the default scope.
      sql<number[]>`array(
        select m.team_id from team_members m where m.user_id = k.user_id order by m.created_at, m.team_id
      )`.as('teamIds'),
    ])
    .executeTakeFirst();
  return row;
}

export async function touchApiKey(db: Executor, apiKeyId: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: new Date() }).where('id', '=', apiKeyId).execute();
}

export async function selectUserById(db: Executor, userId: number) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function selectUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function insertUser(db: Executor, user: { uuid: string; email: string }) {
  return db
    .insertInto('users')
    .values({
      uuid: user.uuid,
      email: user.email.toLowerCase(),
      first_name: null,
      last_name: null,
      image_url: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertTeam(db: Executor, team: { name: string; ownerId: number }) {
  return db
    .insertInto('teams')
    .values({ name: team.name, user_id: team.ownerId, color: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertMembership(db: Executor, teamId: number, userId: number, role: string) {
  await db
    .insertInto('team_members')
    .values({ team_id: teamId, user_id: userId, role })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

export async function insertApiKey(
  db: Executor,
  key: { userId: number; name: string; keyHash: string; keyPrefix: string },
) {
  return db
    .insertInto('api_keys')
    .values({ user_id: key.userId, name: key.name, key_hash: key.keyHash, key_prefix: key.keyPrefix })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const apiKeySort: SortSpec = {
  fields: {
    created_at: 'api_keys.created_at',
    id: 'api_keys.id',
    name: 'api_keys.name',
    last_used_at: 'api_keys.last_used_at',
  },
  tiebreaker: 'api_keys.id',
};

export async function selectApiKeysOfUser(db: Executor, userId: number, page: PageRequest) {
  const base = db.selectFrom('api_keys').where('user_id', '=', userId);
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'name', 'key_prefix', 'created_at', 'last_used_at', 'revoked_at'])
      .orderBy(orderByClause(page, apiKeySort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Locks the user's row, so concurrent key creations count each other, and counts their active keys. */
export async function lockAndCountActiveKeys(db: Executor, userId: number): Promise<number> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('active'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.active);
}

/** The user an API key (active or not) belongs to. */
export async function selectApiKeyOwner(db: Executor, apiKeyId: number): Promise<number | undefined> {
  const key = await db.selectFrom('api_keys').select('user_id').where('id', '=', apiKeyId).executeTakeFirst();
  return key?.user_id;
}

export async function revokeApiKey(db: Executor, userId: number, apiKeyId: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', apiKeyId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export const teamSort: SortSpec = {
  fields: {
    created_at: 'teams.created_at',
    id: 'teams.id',
    name: 'teams.name',
    updated_at: 'teams.updated_at',
  },
  tiebreaker: 'teams.id',
};

export async function selectTeamsOfUser(db: Executor, userId: number, page: PageRequest) {
  const base = db
    .selectFrom('teams')
    .innerJoin('team_members', 'team_members.team_id', 'teams.id')
    .where('team_members.user_id', '=', userId);
  const [rows, count] = await Promise.all([
    base
      .selectAll('teams')
      .orderBy(orderByClause(page, teamSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function selectTeamOfUser(db: Executor, userId: number, teamId: number) {
  return db
    .selectFrom('teams')
    .innerJoin('team_members', 'team_members.team_id', 'teams.id')
    .where('team_members.user_id', '=', userId)
    .where('teams.id', '=', teamId)
    .selectAll('teams')
    .executeTakeFirst();
}

export async function selectTeamById(db: Executor, teamId: number) {
  return db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
}

/** Users other than the ones `leadflow demo` created (those hold a key named `demoKeyName`). */
/** Serialises first starts (bootstrapOwner) for the rest of the transaction. */
export async function lockBootstrap(trx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('leadflow.bootstrap'))`.execute(trx);
}

export async function countUsersBesidesDemo(db: Executor, demoKeyName: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('api_keys')
            .select('api_keys.id')
            .whereRef('api_keys.user_id', '=', 'users.id')
            .where('api_keys.name', '=', demoKeyName),
        ),
      ),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}
