// Seats say what is wrong before contacts pile up: a Chromium seat created or run where Chromium cannot
// start shows start_issue with the reason (naming LEADFLOW_CHROMIUM_PATH), logged as an error; a sandbox
// seat has no login link to hand out.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { secretBoxOf } from '../../deps.js';
import { chromiumStartProblem } from './chromium/chromium-probe.js';
import { createSeatBrowsers } from './chromium/seat-browsers.js';

const base = '/browsers/api/linkedin-browsers';
const MISSING = '/nonexistent/leadflow-test/chromium';

let ctx: TestContext;
let user: TestUser;
let dataDir: string;
beforeAll(async () => {
  ctx = await createTestContext({ env: { LEADFLOW_CHROMIUM_PATH: MISSING } });
  user = await ctx.createUser();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadflow-start-'));
});
afterAll(async () => {
  await ctx.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function createSeat(body: Record<string, unknown> = {}) {
  const sender = await makeSender(ctx.db, user.teamId);
  const res = await ctx.request(user, {
    method: 'POST',
    url: base,
    payload: { sender_profile_uuid: sender.uuid, ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('a Chromium seat where Chromium cannot start', () => {
  it('is created with start_issue and the reason, and running it keeps saying so', async () => {
    const seat = await createSeat();
    expect(seat.status).toBe('start_issue');
    expect(seat.error_reason).toContain(`${MISSING} does not exist or is not executable`);
    expect(seat.error_reason).toContain('LEADFLOW_CHROMIUM_PATH');
    expect(seat.error_reason).toContain('apt-get install chromium');

    expect((await ctx.request(user, { method: 'POST', url: `${base}/${seat.id}/run` })).statusCode).toBe(204);
    const after = (await ctx.request(user, { method: 'GET', url: `${base}/${seat.id}` })).json();
    expect(after).toMatchObject({ status: 'start_issue', error_reason: seat.error_reason });
  });

  it('logs an error naming LEADFLOW_CHROMIUM_PATH, and a running seat whose browser cannot start shows it', async () => {
    const lines: Array<{ level: number; msg: string; chromiumPath?: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const sender = await makeSender(ctx.db, user.teamId);
    const seat = await ctx.db
      .insertInto('linkedin_browsers')
      .values({
        team_id: user.teamId,
        sender_profile_uuid: sender.uuid,
        driver: 'chromium',
        status: 'running',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const browsers = createSeatBrowsers({
      config: { linkedin: ctx.config.linkedin },
      db: ctx.db,
      secretBox: secretBoxOf(ctx.config),
      logger,
    });
    try {
      await expect(browsers.open(user.teamId, seat.id)).rejects.toThrow('LEADFLOW_CHROMIUM_PATH');
    } finally {
      await browsers.closeAll();
    }
    const errors = lines.filter((line) => line.level >= 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ chromiumPath: MISSING });
    expect(errors[0]!.msg).toContain('LEADFLOW_CHROMIUM_PATH');
    const row = await ctx.db
      .selectFrom('linkedin_browsers')
      .select(['status', 'error_reason'])
      .where('id', '=', seat.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('start_issue');
    expect(row.error_reason).toContain(MISSING);
  });

  it('tells an executable that is not Chromium (or does not run) from a missing one', async () => {
    const notChromium = path.join(dataDir, 'not-chromium');
    await fs.writeFile(notChromium, '#!/bin/sh\necho "segmentation fault" >&2\nexit 139\n', { mode: 0o755 });
    const problem = await chromiumStartProblem(notChromium);
    expect(problem).toContain(`${notChromium} --version failed (segmentation fault)`);
    expect(problem).toContain('LEADFLOW_CHROMIUM_PATH');
  });
});

describe('a sandbox seat', () => {
  it('runs at once and answers 422 for a login link: it needs none', async () => {
    const seat = await createSeat({ driver: 'sandbox' });
    expect(seat).toMatchObject({ status: 'running', error_reason: null });
    const res = await ctx.request(user, {
      method: 'POST',
      url: `${base}/${seat.id}/generate-external-access-key`,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('sandbox seats need no login');
    const row = await ctx.db
      .selectFrom('linkedin_browsers')
      .select('access_key_hash')
      .where('id', '=', seat.id)
      .executeTakeFirstOrThrow();
    expect(row.access_key_hash).toBeNull();
  });
});
