// The engine as a worker process runs it: two loops (enrollments; sender dispatch with the sandbox's
// answers and the reconciler), each claiming work in batches and sleeping only when idle. `tick()` runs
// one round of everything at the clock's current time - the simulation and the tests drive it with a
// fake clock instead of starting the loops.
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { crossTeam } from '../../db/citus.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import type { ChannelPush, DriverRegistry, SentActionsHook } from '../channels/driver.js';
import type { WebhookClient } from '../webhooks/webhook-client.js';
import type { ActionRenderer } from './render.js';
import { runTeamBatch } from './run/batch.js';
import { claimDueEnrollments, nextDueAt } from './run/claim.js';
import { dispatchSender } from './run/dispatch.js';
import type { SenderLimits } from './run/dispatch-guards.js';
import { reconcileUnconfirmed } from './run/reconcile.js';
import type { CrashPoint } from './run/send-once.js';
import { claimSenders } from './run/sender-state.js';

export type EngineDeps = {
  db: Database;
  clock: Clock;
  log: Logger;
  config: Config['engine'];
  drivers: DriverRegistry;
  /** Channels that bring answers by themselves (the sandbox network), delivered by the dispatch loop. */
  pushes: ChannelPush[];
  /** What the channels record of done actions (the LinkedIn messages list), in the outcomes' transaction. */
  onSent: SentActionsHook[];
  limits: SenderLimits;
  renderer: ActionRenderer;
  http: WebhookClient;
  /** Waits between gs_call_api retries (the simulation passes a no-op). */
  sleep?: (ms: number) => Promise<void>;
  crashPoint?: (point: CrashPoint) => void;
};

export type TickResult = {
  claimed: number;
  steps: number;
  actions: number;
  answers: number;
  reconciled: number;
};

export class SimulatedCrash extends Error {}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createEngine(deps: EngineDeps) {
  const { db, log, config } = deps;
  const batchDeps = {
    db,
    log,
    renderer: deps.renderer,
    triggerDefaultWaitSeconds: config.triggerDefaultWaitSeconds,
    http: { client: deps.http, sleep: deps.sleep ?? sleepFor },
  };
  const dispatchDeps = {
    db,
    log,
    drivers: deps.drivers,
    onSent: deps.onSent,
    limits: deps.limits,
    config: {
      actionIntervalSeconds: config.actionIntervalSeconds,
      limitPauseMs: config.limitPauseMs,
      maxAttempts: config.maxAttempts,
      reconcileAfterMs: config.reconcileAfterMs,
    },
    crashPoint: deps.crashPoint,
  };
  let lastReconcile = 0;

  /** Claims one batch of due enrollments and runs it; returns rows claimed and node visits. */
  async function runEnrollments(now: Date): Promise<{ claimed: number; steps: number }> {
    const rows = await claimDueEnrollments(db, now, config.batchSize, config.leaseMs);
    deps.crashPoint?.('after_claim');
    const byTeam = new Map<number, typeof rows>();
    for (const row of rows) byTeam.set(row.team_id, [...(byTeam.get(row.team_id) ?? []), row]);
    let steps = 0;
    for (const [teamId, teamRows] of byTeam)
      steps += (await runTeamBatch(batchDeps, teamId, teamRows, now)).steps;
    return { claimed: rows.length, steps };
  }

  /** Claims senders with a due action and runs them, a few at a time; returns actions taken. */
  async function runDispatch(now: Date): Promise<number> {
    const states = await claimSenders(db, now, config.dispatchConcurrency * 4, config.reconcileAfterMs);
    let actions = 0;
    let next = 0;
    const worker = async () => {
      while (next < states.length) {
        const state = states[next++];
        if (!state) break;
        try {
          actions += await dispatchSender(dispatchDeps, state, now);
        } catch (error) {
          if (error instanceof SimulatedCrash) throw error;
          log.error({ err: error, sender: state.sender_profile_uuid }, 'dispatching a sender failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(config.dispatchConcurrency, states.length) }, worker));
    return actions;
  }

  async function runReconcile(now: Date): Promise<number> {
    return reconcileUnconfirmed(
      {
        db,
        log,
        drivers: deps.drivers,
        onSent: deps.onSent,
        reconcileAfterMs: config.reconcileAfterMs,
        maxAttempts: config.maxAttempts,
      },
      now,
    );
  }

  /**
   * The earliest instant anything becomes due: a step, a sender's action, a pushed answer, an action
   * to reconcile. A fake clock jumps there instead of ticking through idle time.
   */
  async function nextWakeAt(): Promise<Date | null> {
    const result = await sql<{ at: Date | null }>`
      ${crossTeam('engine-wake')} select least(
        ${await nextDueAt(db)}::timestamptz,
        (select min(greatest(next_dispatch_at, coalesce(leased_until, '-infinity'))) from sender_channel_state
          where next_dispatch_at is not null),
        (select min(taken_to_execute_at) + ${`${config.reconcileAfterMs + 1} milliseconds`}::interval from tasks
          where status = 'in_progress' and taken_to_execute_at is not null)
      ) as at
    `.execute(db);
    const times = [result.rows[0]?.at ?? null, ...(await Promise.all(deps.pushes.map((p) => p.nextAt())))];
    const due = times.filter((at): at is Date => at !== null).map((at) => at.getTime());
    return due.length > 0 ? new Date(Math.min(...due)) : null;
  }

  /** Delivers the pushing channels' due answers; returns how many. */
  async function deliverPushes(now: Date): Promise<number> {
    let answers = 0;
    for (const push of deps.pushes) answers += await push.deliver(now);
    return answers;
  }

  /** One round of everything at the clock's time (tests and the simulation). */
  async function tick(): Promise<TickResult> {
    const now = deps.clock.now();
    const enrollments = await runEnrollments(now);
    const answers = await deliverPushes(now);
    const actions = await runDispatch(now);
    const reconciled = await runReconcile(now);
    return { ...enrollments, actions, answers, reconciled };
  }

  let running = false;
  const loops: Promise<void>[] = [];

  async function loop(name: string, body: () => Promise<boolean>) {
    while (running) {
      let busy = false;
      try {
        busy = await body();
      } catch (error) {
        log.error({ err: error, loop: name }, 'engine loop failed; retrying');
      }
      if (!busy && running) await sleepFor(config.pollIntervalMs);
    }
  }

  return {
    tick,
    nextWakeAt,
    runEnrollments,
    runDispatch,
    runReconcile,
    /** Starts the loops (worker processes). */
    start() {
      if (running) return;
      running = true;
      loops.push(
        loop('enrollments', async () => (await runEnrollments(deps.clock.now())).claimed > 0),
        loop('dispatch', async () => {
          const now = deps.clock.now();
          const answers = await deliverPushes(now);
          const actions = await runDispatch(now);
          if (now.getTime() - lastReconcile > Math.min(config.reconcileAfterMs, 60_000)) {
            lastReconcile = now.getTime();
            await runReconcile(now);
          }
          return answers + actions > 0;
        }),
      );
    },
    async stop() {
      running = false;
      await Promise.all(loops.splice(0));
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;
