// Durability: a worker process is killed (SIGKILL, no clean-up of any kind) in the middle of a
// 40,000-row import (eight 5,000-row chunks, killed after the second); a fresh worker process takes the job over and finishes it. Every row must be
// counted exactly once and no contact written twice: a run that started over, or a chunk committed
// without its checkpoint, would show up as extra duplicates or extra contacts.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { spawnLeadflow, stopChild } from '../../../test/processes.js';
import { expectAccounted, startImport, tempFilesDir, uploadOk } from './files.test-support.js';

// Large enough that the kill lands mid-file with chunks both behind and ahead of it; import speed
// at 1,000,000 rows is `npm run bench -- files`.
const ROWS = 40_000;

let ctx: TestContext;
let user: TestUser;
let filesDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  filesDir = await tempFilesDir();
  ctx = await createTestContext({ config: { filesDir } });
  user = await ctx.createUser();
});
afterAll(async () => {
  await Promise.all(children.map((child) => stopChild(child, 'SIGKILL')));
  await ctx.close();
});

/** Row i of the file; every 100th repeats the row before it, some rows are bad or blacklisted. */
function line(i: number): string {
  const n = i % 100 === 0 ? i - 1 : i;
  const email = n % 1000 === 3 ? `broken-${n}` : `p${n}@corp${n % 300}.example`;
  const company = n % 2000 === 17 ? 'Blocked Co' : `Corp ${n % 300}`;
  return `First${n},Last${n},${email},${company}`;
}

const DUPLICATES = ROWS / 100;
const ERRORS = ROWS / 1000;
const BLACKLISTED = ROWS / 2000;

function startWorkerProcess(): ChildProcess {
  const child = spawnLeadflow(['worker'], {
    env: {
      ...process.env,
      DATABASE_URL: ctx.databaseUrl,
      LEADFLOW_FILES_DIR: filesDir,
      LEADFLOW_WORKER_POLL_INTERVAL_MS: '100',
      LEADFLOW_WORKER_HEARTBEAT_INTERVAL_MS: '200',
      LEADFLOW_WORKER_HEARTBEAT_TIMEOUT_MS: '1000',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

async function progress(uuid: string) {
  return (await ctx.request(user, { method: 'GET', url: `/leads/api/file-imports/${uuid}` })).json();
}

describe('an import survives its worker being killed', () => {
  it('resumes from the last checkpoint and accounts for every row exactly once', {
    timeout: 300_000,
  }, async () => {
    const entry = await ctx.request(user, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { company_name: 'Blocked Co' },
    });
    expect(entry.statusCode).toBe(201);
    const csv = ['first_name,last_name,email,company'];
    for (let i = 1; i <= ROWS; i++) csv.push(line(i));
    const uploaded = await uploadOk(ctx, user, `${csv.join('\n')}\n`, 'big.csv');
    expect(uploaded.rows_count).toBe(ROWS);
    const started = await startImport(ctx, user, uploaded.uuid, {
      columns: [
        { source: 'first_name', target: 'first_name' },
        { source: 'last_name', target: 'last_name' },
        { source: 'email', target: 'email' },
        { source: 'company', target: 'company_name' },
      ],
    });
    expect(started.statusCode, started.body).toBe(200);

    const first = startWorkerProcess();
    const midway = await waitFor(
      async () => {
        const record = await progress(uploaded.uuid);
        return record.processed_rows >= 10_000 ? record : undefined;
      },
      120_000,
      20,
    );
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = await progress(uploaded.uuid);
    expect(atKill.status).toBe('processing');
    expect(atKill.processed_rows).toBeGreaterThanOrEqual(midway.processed_rows);
    expect(atKill.processed_rows).toBeLessThan(ROWS);

    startWorkerProcess();
    const done = await waitFor(
      async () => {
        const record = await progress(uploaded.uuid);
        return record.status === 'done' || record.status === 'failed' ? record : undefined;
      },
      240_000,
      200,
    );
    expect(done.status, done.error).toBe('done');
    expectAccounted(done);
    expect(done).toMatchObject({
      total_rows: ROWS,
      processed_rows: ROWS,
      duplicate_count: DUPLICATES,
      error_count: ERRORS,
      blacklisted_count: BLACKLISTED,
      updated_count: 0,
      created_count: ROWS - DUPLICATES - ERRORS - BLACKLISTED,
    });
    const stored = await ctx.db
      .selectFrom('leads')
      .select([
        (eb) => eb.fn.countAll<number>().as('contacts'),
        (eb) => eb.fn.count<number>('work_email').distinct().as('emails'),
      ])
      .where('team_id', '=', user.teamId)
      .where('list_uuid', '=', done.list_uuid)
      .executeTakeFirstOrThrow();
    expect(Number(stored.contacts)).toBe(ROWS - DUPLICATES - ERRORS - BLACKLISTED);
    expect(Number(stored.emails)).toBe(Number(stored.contacts));
  });
});
