// Claiming work across teams, one team at a time. A claim locks the rows it takes (FOR UPDATE SKIP
// LOCKED, so concurrent workers take disjoint rows), and on Citus a locking statement must stay within
// one shard group - one team. So a claim reads first which teams have due rows (one cross-team read
// without locks, earliest first: on Citus each shard answers its own first rows), then claims them
// with one statement per team. The same code runs on plain PostgreSQL.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { type CrossTeamStatement, crossTeam } from './citus.js';
import type { Executor } from './database.js';

export type TeamClaim<T> = {
  db: Executor;
  /** The cross-team read's name in CROSS_TEAM (src/db/citus.ts). */
  mark: CrossTeamStatement;
  table: string;
  /** Which rows are due, on the table aliased `t`. */
  due: RawBuilder<SqlBool>;
  /** What orders due rows (alias `t`), earliest first. */
  order: RawBuilder<unknown>;
  limit: number;
  /** Claims up to `limit` due rows of one team (a router statement). */
  claim(teamId: number, limit: number): Promise<T[]>;
};

/** Teams with due rows among the first `limit`, with how many each, the earliest first. */
export async function teamsWithDueRows(
  options: Pick<TeamClaim<unknown>, 'db' | 'mark' | 'table' | 'due' | 'order' | 'limit'>,
): Promise<Array<{ team_id: number; due: number }>> {
  const { rows } = await sql<{ team_id: number; due: number }>`
    ${crossTeam(options.mark)} select d.team_id, count(*)::int as due from (
      select t.team_id, ${options.order} as due_at from ${sql.table(options.table)} t
      where ${options.due} order by ${options.order} limit ${options.limit}
    ) d group by d.team_id order by min(d.due_at)
  `.execute(options.db);
  return rows.map((row) => ({ team_id: Number(row.team_id), due: row.due }));
}

export async function claimAcrossTeams<T>(options: TeamClaim<T>): Promise<T[]> {
  const claimed: T[] = [];
  for (const team of await teamsWithDueRows(options)) {
    const room = options.limit - claimed.length;
    if (room <= 0) break;
    claimed.push(...(await options.claim(team.team_id, Math.min(room, team.due))));
  }
  return claimed;
}
