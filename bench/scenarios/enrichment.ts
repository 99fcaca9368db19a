// Enrichment of BENCH_ENRICH_CONTACTS (10,000) contacts through the sandbox network: queueing them with
// PUT /leads/api/leads/advanced-enrichment's use case (one credit reserved each), then the worker's
// loop (claim a batch, claimRead + read each profile, fill the batch set-based with refunds and events)
// until the queue is empty. Credits must come out exact: the balance equals the profiles that could not
// be read (the sandbox's missing share, each refunded), and the ledger sums to it. Baseline, measured in
// the same run: one bare set-based UPDATE writing the same fields of the same rows.
import { sql } from 'kysely';
import { createLinkedInReaders } from '../../src/deps.js';
import { systemClock } from '../../src/lib/clock.js';
import { runEnrichment } from '../../src/modules/enrichment/enrichment.worker.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import { makeList, makeSenderProfile } from '../../test/factories.js';
import type { BenchRow, Scenario } from '../lib.js';

const CONTACTS = Number(process.env.BENCH_ENRICH_CONTACTS ?? 10_000);

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

export const enrichmentScenario: Scenario = {
  name: 'enrichment',
  description: `LinkedIn enrichment of ${CONTACTS.toLocaleString('en-US')} contacts in the sandbox (credits exact), against a bare UPDATE`,
  async run(server, log) {
    const deps = await server.newDatabase('enrichment');
    const db = deps.handle.db;
    const { team_id: teamId } = await deps.services.identity.createUserWithTeam({
      email: 'bench-enrich@example.test',
      teamName: 'Bench enrichment',
    });
    const list = await makeList(db, teamId, 'Enrich me');
    const stage = await selectInitialStageUuid(db, teamId, 'lead');
    await sql`
      insert into leads (team_id, uuid, list_uuid, pipeline_stage_uuid, first_name, name, linkedin, custom_fields)
      select ${teamId}, leadflow_uuid_v7(), ${list.uuid}, ${stage}, 'Bench', 'Bench ' || i, 'bench-enrich-' || i, '{}'
      from generate_series(1, ${CONTACTS}) as i
    `.execute(db);
    const sender = await makeSenderProfile(db, teamId, { first_name: 'Reader' });
    await db
      .insertInto('linkedin_browsers')
      .values({ team_id: teamId, sender_profile_uuid: sender.uuid, driver: 'sandbox', status: 'running' })
      .execute();
    await deps.services.identity.addCredits(teamId, CONTACTS);

    let queued = 0;
    const queueSeconds = await timed(async () => {
      queued = (await deps.services.enrichment.enrichLeads(teamId, { filter: { list_uuid: list.uuid } }))
        .count;
    });
    if (queued !== CONTACTS) throw new Error(`queued ${queued}, expected ${CONTACTS}`);

    const readers = createLinkedInReaders({ db, config: deps.config, clock: systemClock });
    let done = 0;
    const enrichSeconds = await timed(async () => {
      for (;;) {
        const left = await runEnrichment({ db, clock: systemClock, readers, budgetMs: 3_600_000 }, teamId);
        done += left.done;
        if (!left.again && !left.at) break;
        if (left.at && left.at.getTime() > Date.now())
          throw new Error(`work left for ${left.at.toISOString()}`);
      }
    });
    const states = await db
      .selectFrom('enrichment_queue')
      .select(['status', (eb) => eb.fn.countAll<string>().as('n')])
      .where('team_id', '=', teamId)
      .groupBy('status')
      .execute();
    const count = (status: string) => Number(states.find((s) => s.status === status)?.n ?? 0);
    const failed = count('failed');
    const balance = Number(
      (
        await db
          .selectFrom('teams')
          .select('credits_advanced_enrichment')
          .where('id', '=', teamId)
          .executeTakeFirstOrThrow()
      ).credits_advanced_enrichment,
    );
    const ledgerSum = Number(
      (
        await db
          .selectFrom('credit_ledger')
          .select((eb) => eb.fn.sum<string>('delta').as('sum'))
          .where('team_id', '=', teamId)
          .executeTakeFirstOrThrow()
      ).sum,
    );
    const filled = Number(
      (
        await db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('team_id', '=', teamId)
          .where('linkedin_status', '=', 'ok')
          .where('headline', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
    const events = Number(
      (
        await db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('team_id', '=', teamId)
          .where('name', '=', 'contact_enriched')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const exact =
      count('done') === done &&
      done + failed === CONTACTS &&
      balance === failed &&
      ledgerSum === balance &&
      filled === done &&
      events === done;
    log(
      `  queued ${queued} in ${queueSeconds.toFixed(2)} s; enriched ${done}, failed ${failed} (refunded) in ${enrichSeconds.toFixed(1)} s;` +
        ` balance ${balance}, ledger sum ${ledgerSum}, filled ${filled}, events ${events}`,
    );
    if (!exact) throw new Error('enrichment credits or counts are not exact (see the line above)');

    // Baseline: the same fields of the same rows in one bare UPDATE (no reads, no queue, no events).
    const plainSeconds = await timed(() =>
      sql`
        update leads set headline = 'Bench headline', about = 'About', position = 'Engineer',
          company_name = 'Bench Co', avatar_url = 'https://example.test/a.png', raw_address = 'Berlin',
          connections_number = 500, followers_number = 600, primary_language = 'en',
          skills = array['a', 'b'], experience = '[]'::jsonb, linkedin_status = 'ok', updated_at = now()
        where team_id = ${teamId} and list_uuid = ${list.uuid}
      `.execute(db),
    );
    log(`  baseline: one bare UPDATE of the same ${CONTACTS} rows ${plainSeconds.toFixed(2)} s`);
    const rows: BenchRow[] = [
      {
        scenario: 'enrichment',
        metric: `queue ${CONTACTS.toLocaleString('en-US')} contacts (reserve credits)`,
        value: queueSeconds,
        unit: 's',
      },
      {
        scenario: 'enrichment',
        metric: `enrich ${CONTACTS.toLocaleString('en-US')} contacts, sandbox (baseline: one bare UPDATE of the rows)`,
        value: enrichSeconds,
        unit: 's',
        baseline: plainSeconds,
      },
      {
        scenario: 'enrichment',
        metric: 'enrichment throughput',
        value: CONTACTS / enrichSeconds,
        unit: 'contacts/s',
      },
      {
        scenario: 'enrichment',
        metric: `credits exact (balance ${balance} = ${failed} refunded failures, ledger sums to it)`,
        value: exact ? 1 : 0,
        unit: 'ok',
        goal: 'exact',
        pass: exact,
      },
    ];
    return rows;
  },
};
