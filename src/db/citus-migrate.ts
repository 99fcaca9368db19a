// How migrations run on Citus (see citus.ts for where tables go).
//
// - One statement per command: Citus forwards some DDL to the workers as the text it received (an
//   index on a shell table, for example), and a migration's text holds many statements, which a
//   worker then refuses ("cannot insert multiple commands into a prepared statement"). Migration
//   text is split with PostgreSQL's own parser (libpg-query), so dollar quotes and comments are safe.
// - Sequential mode: DDL on tables distributed earlier in the same transaction goes shard by shard
//   over one connection per node, as Citus requires.
// - Triggers on distributed tables (count deltas, auth notifications) are allowed: they run on the
//   shards and write co-located shards of the same team.
import { Kysely, type Migration, PostgresDialect, sql } from 'kysely';
import { parse } from 'libpg-query';
import type pg from 'pg';

/** The statements of `text`, in order (a single statement comes back as it is). */
export async function splitStatements(text: string): Promise<string[]> {
  const stmts = (await parse(text)).stmts ?? [];
  if (stmts.length <= 1) return [text];
  // Locations are byte offsets.
  const bytes = Buffer.from(text, 'utf8');
  return stmts
    .map((s) => {
      const start = s.stmt_location ?? 0;
      const end = s.stmt_len ? start + s.stmt_len : bytes.length;
      return bytes.subarray(start, end).toString('utf8').trim();
    })
    .filter((statement) => statement.length > 0);
}

type QueryResult = { rows: unknown[]; command: string; rowCount: number | null };

/** A pool whose clients send a parameterless multi-statement text one statement at a time. */
function statementAtATimePool(pool: pg.Pool) {
  return {
    async connect() {
      const client = await pool.connect();
      return {
        async query(text: string, parameters: unknown[]) {
          if (parameters.length > 0) return client.query(text, parameters);
          let last: QueryResult = { rows: [], command: '', rowCount: 0 };
          for (const statement of await splitStatements(text)) last = await client.query(statement);
          return last;
        },
        release: (error?: Error) => client.release(error),
      };
    },
    // The pool belongs to the caller.
    end: async () => {},
  };
}

/** A Kysely instance over `pool` for running migrations on Citus. */
export function citusMigrationDb(pool: pg.Pool): Kysely<unknown> {
  return new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: statementAtATimePool(pool) as never }),
  });
}

/** Wraps a migration with the settings distributed DDL needs (see the top of this file). */
export function forCitus(migration: Migration): Migration {
  return {
    async up(db) {
      await sql`set local citus.multi_shard_modify_mode to 'sequential'`.execute(db);
      await sql`set local citus.enable_unsafe_triggers to on`.execute(db);
      await sql`set local leadflow.citus_placement to on`.execute(db);
      await migration.up(db);
    },
  };
}
