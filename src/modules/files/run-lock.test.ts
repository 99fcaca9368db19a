import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, waitFor } from '../../../test/harness.js';
import { exclusively } from './run-lock.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

// Locks of this file's own database (other test files run against the same server).
const advisoryLocks = async () =>
  Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from pg_locks
      where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`.execute(
        ctx.db,
      )
    ).rows[0]!.n,
  );

describe('exclusively', () => {
  it('lets one run at a time hold a key, on one connection, and frees it when the run ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let backend: number | undefined;
    const first = exclusively(ctx.db, 'files.import:1:a', async (connection) => {
      backend = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection)).rows[0]!.pid;
      await connection.transaction().execute(async (trx) => {
        const inside = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
        expect(inside).toBe(backend);
      });
      await held;
    });
    await waitFor(async () => (await advisoryLocks()) === 1);
    let ranSecond = false;
    expect(
      await exclusively(ctx.db, 'files.import:1:a', async () => {
        ranSecond = true;
      }),
    ).toBe(false);
    expect(ranSecond).toBe(false);
    // Another key is independent.
    expect(await exclusively(ctx.db, 'files.import:1:b', async () => {})).toBe(true);
    release();
    expect(await first).toBe(true);
    expect(await advisoryLocks()).toBe(0);
    expect(await exclusively(ctx.db, 'files.import:1:a', async () => {})).toBe(true);
  });

  it('releases the key when the run fails', async () => {
    await expect(
      exclusively(ctx.db, 'files.export:1:c', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await advisoryLocks()).toBe(0);
    expect(await exclusively(ctx.db, 'files.export:1:c', async () => {})).toBe(true);
  });
});
