// `leadflow doctor` in-process (doctorChecks is what the command prints): each check says what works
// and, when something does not, what to do - on a real database, a real LLM stand-in and the real app.
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../test/automation-factories.js';
import { createTestContext, type TestContext } from '../../test/harness.js';
import { freePort } from '../../test/mail/dovecot.js';
import { stopChild, waitForOutput } from '../../test/processes.js';
import { hasPrograms, onPath } from '../../test/system-programs.js';
import { newId } from '../lib/ids.js';
import { createSecretBox } from '../lib/secrets.js';
import { type LlmStandIn, startLlmStandIn } from '../modules/llm/llm.stand-in.js';
import { type Check, doctorChecks, formatChecks } from './doctor.js';

let ctx: TestContext;
let llm: LlmStandIn;
let origin: string;
let env: Record<string, string>;

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  llm = await startLlmStandIn();
  env = {
    DATABASE_URL: ctx.databaseUrl,
    LEADFLOW_SECRET_KEY: ctx.config.secretKey!,
    LEADFLOW_PUBLIC_URL: origin,
    LEADFLOW_CHROMIUM_PATH: '/nonexistent/chromium',
    LEADFLOW_LLM_BASE_URL: llm.url,
    LEADFLOW_GMAIL_CLIENT_ID: 'only-the-id',
  };
});
afterAll(async () => {
  await llm?.close();
  await ctx?.close();
});

const byName = (checks: Check[]) => Object.fromEntries(checks.map((check) => [check.name, check]));

describe('leadflow doctor', () => {
  it('says what works and what to do about what does not', async () => {
    const user = await ctx.createUser();
    const sender = await makeSender(ctx.db, user.teamId);
    // A mailbox whose secrets were sealed with another key than the configured one.
    const foreign = createSecretBox(Buffer.alloc(32, 7));
    await ctx.db
      .insertInto('mailboxes')
      .values({
        team_id: user.teamId,
        uuid: newId(),
        sender_profile_uuid: sender.uuid,
        email: 'box@example.test',
        sender_name: 'Sam',
        provider: 'smtp',
        connection_settings: '{}',
        secrets: foreign.seal('{"password":"x"}'),
        status: 'error',
      })
      .execute();

    // A running chromium seat whose last health check missed the profile's top card.
    await ctx.db
      .insertInto('linkedin_browsers')
      .values({
        team_id: user.teamId,
        sender_profile_uuid: sender.uuid,
        driver: 'chromium',
        status: 'running',
        health: JSON.stringify({ missed: ['profile.topCard'], steps: [] }),
        health_checked_at: new Date(),
        action_breakers: JSON.stringify({
          linkedin_send_connection_request: { misses: 0, open_since: new Date().toISOString(), reason: 'x' },
        }),
      })
      .execute();

    const checks = byName(await doctorChecks(env));
    expect(checks['seat health']).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/missed profile\.topCard; paused send_connection_request/),
    });
    expect(checks.database).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^PostgreSQL \d+/) });
    expect(checks.migrations).toMatchObject({ status: 'ok' });
    expect(checks['secret key']).toMatchObject({ status: 'ok', detail: 'LEADFLOW_SECRET_KEY is set' });
    expect(checks['stored secrets']).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('LEADFLOW_SECRET_KEY_PREVIOUS'),
    });
    expect(checks.chromium).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('LEADFLOW_CHROMIUM_PATH'),
    });
    expect(checks['public URL']).toMatchObject({ status: 'warn', detail: expect.stringContaining(origin) });
    expect(checks['public URL answers']).toMatchObject({ status: 'ok' });
    expect(checks['gmail OAuth']).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('CLIENT_SECRET'),
    });
    expect(checks.mailboxes).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('1 mailbox(es) in error'),
    });
    expect(checks.LLM).toMatchObject({ status: 'ok' });
    expect(llm.requests.at(-1)).toMatchObject({ max_tokens: 1 });

    const report = formatChecks(Object.values(checks));
    expect(report).toMatch(/^Leadflow .* doctor\n/);
    expect(report).toContain('FAIL  stored secrets');
    expect(report).toContain('-> use the key they were sealed with');
    expect(report).toMatch(/\d check\(s\) failed/);
  });

  it('names a failing LLM and a configuration it cannot read', async () => {
    llm.answer(() => ({ status: 401 }));
    const checks = byName(await doctorChecks({ ...env, LEADFLOW_GMAIL_CLIENT_ID: '' }));
    expect(checks.LLM).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('LEADFLOW_LLM_API_KEY'),
    });
    expect(checks['gmail OAuth']).toMatchObject({ status: 'info' });
    llm.reset();

    const broken = await doctorChecks({ PORT: 'eighty', LEADFLOW_SECRET_KEY: 'short' });
    expect(broken).toEqual([
      expect.objectContaining({
        name: 'configuration',
        status: 'fail',
        detail: expect.stringContaining('PORT'),
      }),
    ]);
  });

  it('reports a database it cannot reach, and a bad secret key', async () => {
    const checks = byName(
      await doctorChecks({
        ...env,
        DATABASE_URL: 'postgres://nobody:wrong@127.0.0.1:1/none',
        LEADFLOW_SECRET_KEY: 'c2hvcnQ=',
        LEADFLOW_LLM_BASE_URL: '',
      }),
    );
    expect(checks.database).toMatchObject({ status: 'fail', fix: expect.stringContaining('DATABASE_URL') });
    expect(checks['secret key']).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('openssl rand'),
    });
    expect(checks.LLM).toMatchObject({ status: 'info' });
  });

  it('checks Redis when REDIS_URL is set, and says the database is plain PostgreSQL', async () => {
    const plain = byName(await doctorChecks({ ...env, LEADFLOW_LLM_BASE_URL: '' }));
    expect(plain.citus).toMatchObject({ status: 'info', detail: 'plain PostgreSQL' });
    expect(plain.redis).toMatchObject({ status: 'info', fix: expect.stringContaining('REDIS_URL') });

    const closed = await freePort();
    const unreachable = byName(
      await doctorChecks({ ...env, LEADFLOW_LLM_BASE_URL: '', REDIS_URL: `redis://127.0.0.1:${closed}` }),
    );
    expect(unreachable.redis).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining(`127.0.0.1:${closed}`),
    });

    if (!hasPrograms('the doctor\u2019s Redis check', ['redis-server'])) return;
    const port = await freePort();
    const redis = spawn(onPath('redis-server')!, [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
    ]);
    try {
      await waitForOutput(redis, /Ready to accept/);
      const running = byName(
        await doctorChecks({ ...env, LEADFLOW_LLM_BASE_URL: '', REDIS_URL: `redis://127.0.0.1:${port}` }),
      );
      expect(running.redis).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^Redis \d+\./) });
    } finally {
      await stopChild(redis);
    }
  });
});
