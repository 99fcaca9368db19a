// A test context with an automation engine on a manual clock: `run` ticks the engine and moves the
// clock forward whenever a round finds nothing to do, until a condition holds.

import { pino } from 'pino';
import { closeChannelMail, createAutomationEngine, type EngineOptions } from '../src/deps.js';
import { type ManualClock, manualClock } from '../src/lib/clock.js';
import type { Engine } from '../src/modules/engine/engine.js';
import { createTestContext, type TestContext, type TestUser } from './harness.js';

export type EngineHarness = {
  ctx: TestContext;
  clock: ManualClock;
  engine: Engine;
  user: TestUser;
  /**
   * Ticks until `until()` holds (or, without it, `maxTicks` rounds). When a round finds nothing to do
   * the clock jumps to the next instant something is due, at most `stepMs` ahead.
   */
  run(until?: () => Promise<boolean>, options?: { stepMs?: number; maxTicks?: number }): Promise<void>;
  close(): Promise<void>;
};

/**
 * Ticks `engine` until `until()` holds (or, without it, `maxTicks` rounds). When a round finds nothing
 * to do the clock jumps to the next instant something is due, at most `stepMs` ahead.
 */
export async function runEngine(
  engine: Engine,
  clock: ManualClock,
  until?: () => Promise<boolean>,
  {
    stepMs = 6 * 3600_000,
    maxTicks = 2000,
    afterTick,
  }: { stepMs?: number; maxTicks?: number; afterTick?: () => void } = {},
): Promise<void> {
  for (let i = 0; i < maxTicks; i += 1) {
    const result = await engine.tick();
    afterTick?.();
    if (until && (await until())) return;
    if (result.claimed + result.actions + result.answers + result.reconciled === 0) {
      const now = clock.now().getTime();
      const next = (await engine.nextWakeAt())?.getTime() ?? Number.POSITIVE_INFINITY;
      clock.set(new Date(next > now ? Math.min(next, now + stepMs) : now + 1000));
    }
  }
  if (until) throw new Error(`not reached within ${maxTicks} ticks (clock at ${clock.now().toISOString()})`);
}

export async function createEngineHarness(
  options: {
    start?: Date;
    env?: Record<string, string>;
    engine?: EngineOptions;
    /** Errors the test provokes on purpose (a crashing channel) do not fail the run. */
    expectedErrors?: RegExp;
  } = {},
): Promise<EngineHarness> {
  const clock = manualClock(options.start ?? new Date('2026-06-01T08:00:00Z'));
  const ctx = await createTestContext({
    clock,
    env: {
      LEADFLOW_SANDBOX_ACCEPT_RATE: '1',
      LEADFLOW_SANDBOX_REPLY_RATE: '0',
      LEADFLOW_SANDBOX_MIN_RESPONSE_SECONDS: '30',
      LEADFLOW_SANDBOX_MAX_RESPONSE_SECONDS: '60',
      ...options.env,
    },
  });
  const user = await ctx.createUser();
  // Errors the engine logs (and survives) fail the run: in production they would be silent bugs.
  const errors: string[] = [];
  const logger = pino(
    { level: 'error' },
    {
      write(line: string) {
        errors.push(line);
      },
    },
  );
  const engine = createAutomationEngine({ db: ctx.db, config: ctx.config, clock }, logger, {
    sleep: async () => {},
    ...options.engine,
  });
  return {
    ctx,
    clock,
    engine,
    user,
    run: (until, runOptions) =>
      runEngine(engine, clock, until, {
        ...runOptions,
        afterTick() {
          const unexpected = errors.splice(0).filter((line) => !options.expectedErrors?.test(line));
          if (unexpected.length > 0) throw new Error(`the engine logged an error: ${unexpected.join('\n')}`);
        },
      }),
    async close() {
      // The engine's SMTP pools and held IMAP connections, as the runtime closes them on shutdown: left
      // open, a mail server's close waits for them (30 s for the test relay).
      await closeChannelMail(ctx.db);
      await ctx.close();
    },
  };
}
