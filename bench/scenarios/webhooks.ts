// Webhook delivery with the real outbox, fan-out and delivery jobs on graphile-worker, to a local
// receiver in this process:
//   emit:     one emitContactEvents statement over 100,000 contacts (the export path).
//   backlog:  10,000 events queued while no worker runs, then workers start: deliveries/s until the
//             last one arrives.
//   load:     10,000 events committed in 100 transactions while the workers run, so a queue builds
//             up; p50/p99 delay from each event's commit to its arrival at the receiver.
//   idle:     single events on an empty queue, one at a time; p50/p99 commit→arrival delay.
// Workers run LEADFLOW_BENCH_WEBHOOK_CONCURRENCY jobs at a time (default: the configured
// LEADFLOW_WORKER_CONCURRENCY, 10).
import { sql } from 'kysely';
import { createJobCatalog, createServices } from '../../src/deps.js';
import { startWorker, type WorkerHandle } from '../../src/jobs/runner.js';
import { systemClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { emitContactEvents, emitEvents } from '../../src/modules/events/emit.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import { startReceiver } from '../../src/modules/webhooks/receiver.test-support.js';
import { type BenchRow, percentile, type Scenario } from '../lib.js';

const EVENTS = 10_000;
const PER_TRANSACTION = 100;
const IDLE_SAMPLES = 100;
const EMIT_CONTACTS = 100_000;

export const webhooksScenario: Scenario = {
  name: 'webhooks',
  description: `deliveries/s and commit-to-delivery delay, ${EVENTS.toLocaleString('en-US')} events to a local receiver`,
  async run(server, log) {
    const base = await server.newDatabase('webhooks');
    const concurrency = Number(
      process.env.LEADFLOW_BENCH_WEBHOOK_CONCURRENCY ?? base.config.worker.concurrency,
    );
    // The receiver listens on loopback, which the private-address guard would refuse.
    const config = { ...base.config, webhooks: { ...base.config.webhooks, allowPrivateTargets: true } };
    const deps = { db: base.handle.db, config, clock: systemClock };
    const services = createServices(deps);
    const db = base.handle.db;
    const { team_id: teamId, user_id: userId } = await services.identity.createUserWithTeam({
      email: 'bench@example.test',
      teamName: 'Bench',
    });
    const list = await db
      .insertInto('lists')
      .values({ team_id: teamId, uuid: sql<string>`leadflow_uuid_v7()`, name: 'Bench' })
      .returning('uuid')
      .executeTakeFirstOrThrow();
    const stage = await selectInitialStageUuid(db, teamId, 'lead');
    const leads = await sql<{ uuid: string }>`
      insert into leads (team_id, uuid, list_uuid, pipeline_stage_uuid, first_name, last_name, name, work_email)
      select ${teamId}, leadflow_uuid_v7(), ${list.uuid}, ${stage}, 'First' || i, 'Last' || i, 'First' || i || ' Last' || i,
        'person' || i || '@example.test'
      from generate_series(1, ${EMIT_CONTACTS}) as i
      returning uuid
    `.execute(db);
    const leadUuids = leads.rows.slice(0, EVENTS).map((row) => row.uuid);
    await sql`analyze leads`.execute(db);

    const receiver = await startReceiver();
    const receivedAt = new Map<string, number>();
    receiver.onRequest = (request) => receivedAt.set(request.headers['webhook-id'] ?? '', request.receivedAt);
    const committedAt = new Map<string, number>();
    const rows: BenchRow[] = [];
    let worker: WorkerHandle | undefined;
    try {
      // Emit: nobody listens to contact_enriched yet, so this is the recording cost alone.
      const emitStarted = performance.now();
      const emitted = await db
        .transaction()
        .execute((trx) =>
          emitContactEvents(
            trx,
            teamId,
            'contact_enriched',
            sql`select uuid from leads where team_id = ${teamId}`,
          ),
        );
      const emitMs = performance.now() - emitStarted;
      log(`  emit: ${emitted} contact events recorded in one statement in ${Math.round(emitMs)} ms`);
      rows.push({
        scenario: 'webhooks',
        metric: `emitContactEvents, ${EMIT_CONTACTS.toLocaleString('en-US')} contacts`,
        value: emitMs,
        unit: 'ms',
      });

      await services.webhooks.createWebhook(teamId, userId, {
        name: 'Bench',
        event: 'contact_exported',
        target_url: `${receiver.url}/hook`,
      });
      await services.webhooks.createWebhook(teamId, userId, {
        name: 'Bench idle',
        event: 'contact_enriched',
        target_url: `${receiver.url}/idle`,
      });
      const startWorkers = () =>
        startWorker({
          db,
          pool: base.handle.pool,
          jobs: createJobCatalog(services, deps),
          ...config.worker,
          concurrency,
          log: createLogger('warn'),
        });

      // Backlog: queue 10,000 events with the workers stopped, then drain.
      await db.transaction().execute((trx) => emitContactEvents(trx, teamId, 'contact_exported', leadUuids));
      worker = await startWorkers();
      const drainStarted = Date.now();
      const backlog = await receiver.waitFor(EVENTS, (r) => r.path === '/hook', 600_000);
      const drainSeconds = (Math.max(...backlog.map((r) => r.receivedAt)) - drainStarted) / 1000;
      log(
        `  backlog: ${EVENTS} queued events delivered in ${drainSeconds.toFixed(1)} s (concurrency ${concurrency})`,
      );
      rows.push({
        scenario: 'webhooks',
        metric: `deliveries/s, ${EVENTS.toLocaleString('en-US')} queued (concurrency ${concurrency})`,
        value: EVENTS / drainSeconds,
        unit: '/s',
        goal: '>= 500/s',
        pass: EVENTS / drainSeconds >= 500,
      });

      // Load: events committed in batches while the workers run; each event's commit time is its
      // transaction's.
      const started = Date.now();
      for (let offset = 0; offset < EVENTS; offset += PER_TRANSACTION) {
        const batch = leadUuids.slice(offset, offset + PER_TRANSACTION);
        await db.transaction().execute((trx) => emitContactEvents(trx, teamId, 'contact_exported', batch));
        const now = Date.now();
        for (const uuid of batch) committedAt.set(uuid, now);
      }
      const emittedIn = Date.now() - started;
      const loadRequests = (await receiver.waitFor(2 * EVENTS, (r) => r.path === '/hook', 600_000)).slice(
        EVENTS,
      );
      const finished = Math.max(...loadRequests.map((r) => r.receivedAt));
      const seconds = (finished - started) / 1000;
      const delays = loadRequests.map(
        (r) => r.receivedAt - committedAt.get(JSON.parse(r.body).contact.uuid)!,
      );
      const all = receiver.requests.filter((r) => r.path === '/hook');
      const duplicates = all.length - new Set(all.map((r) => r.headers['webhook-id'])).size;
      log(
        `  load: ${EVENTS} events committed over ${emittedIn} ms, all delivered after ${seconds.toFixed(1)} s ` +
          `(${Math.round(EVENTS / seconds)}/s; ${duplicates} duplicate deliveries overall)`,
      );
      rows.push(
        {
          scenario: 'webhooks',
          metric: 'commit→delivery p50 under load',
          value: percentile(delays, 50),
          unit: 'ms',
        },
        {
          scenario: 'webhooks',
          metric: 'commit→delivery p99 under load',
          value: percentile(delays, 99),
          unit: 'ms',
        },
      );

      // Idle: one event at a time on an empty queue.
      const idle: number[] = [];
      for (let i = 0; i < IDLE_SAMPLES; i++) {
        const [eventUuid] = await db
          .transaction()
          .execute((trx) => emitEvents(trx, teamId, [{ name: 'contact_enriched', leadUuid: leadUuids[i] }]));
        const committed = Date.now();
        await receiver.waitFor(i + 1, (r) => r.path === '/idle', 30_000);
        idle.push(receivedAt.get(eventUuid!)! - committed);
      }
      log(
        `  idle: p50 ${percentile(idle, 50)} ms, p99 ${percentile(idle, 99)} ms over ${IDLE_SAMPLES} events`,
      );
      rows.push(
        {
          scenario: 'webhooks',
          metric: 'commit→delivery p50, empty queue',
          value: percentile(idle, 50),
          unit: 'ms',
          goal: '< 1000 ms',
          pass: percentile(idle, 50) < 1000,
        },
        {
          scenario: 'webhooks',
          metric: 'commit→delivery p99, empty queue',
          value: percentile(idle, 99),
          unit: 'ms',
        },
      );
    } finally {
      await worker?.stop();
      await services.webhooks.close();
      await receiver.close();
    }
    return rows;
  },
};
