import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

// bigint columns (team ids, counts) fit comfortably in a JS number for this product's scale,
// and the wire format wants numbers, so parse int8 as number once for the whole process.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
const INT8_ARRAY = 1016 as Parameters<typeof pg.types.setTypeParser>[0];
const parseTextArray = pg.types.getTypeParser(INT8_ARRAY);
pg.types.setTypeParser(INT8_ARRAY, (value) =>
  (parseTextArray(value) as (string | null)[]).map((v) => (v === null ? null : Number(v))),
);
// numeric stays a string elsewhere; deal sizes and the like are parsed where they are read.

export type Database = Kysely<DB>;
/** Anything a repository can run SQL on: the pool-backed instance or an open transaction. */
export type Executor = Kysely<DB> | Transaction<DB>;

export type DatabaseHandle = { db: Database; pool: pg.Pool; close(): Promise<void> };

export function createDatabase(url: string, poolSize = 20): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Keep idle connections around: reconnecting costs more than a few idle sockets.
    idleTimeoutMillis: 30_000,
    application_name: 'leadflow',
  });
  // An idle client losing its connection (database restart) must not crash the process;
  // the next checkout reconnects.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    db,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
