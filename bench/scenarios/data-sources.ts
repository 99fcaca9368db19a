// Data sources: a 2,500-result Sales Navigator search of the sandbox network saved into a list (the
// job runs called back to back, as a worker runs them when the read pace allows at once), against the
// same 2,500 people written by the CSV import's chunk writer in one chunk (the path the source reuses),
// measured in the same run. Then the same search again, where everyone is a duplicate (baseline: the
// writer given the same people a second time). The source pays per page what the one-chunk writer does
// not: the sandbox generating the page, a committed read-budget claim (claimRead), and a transaction per
// pagesPerRun pages (lock, write, counters).
import { sql } from 'kysely';
import { createLinkedInReaders } from '../../src/deps.js';
import { systemClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import { createSandboxReader } from '../../src/modules/browsers/sandbox/sandbox-reader.js';
import type { PersonResult, SearchPage } from '../../src/modules/channels/reader.js';
import { runDataSource } from '../../src/modules/data-sources/data-sources.runner.js';
import { prepareLeadRows, writeLeadChunk } from '../../src/modules/files/import-leads.js';
import { LEAD_TARGETS, type MappedColumn } from '../../src/modules/files/import-mapping.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import { makeSandboxSeat, makeSender } from '../../test/automation-factories.js';
import type { BenchRow, Scenario } from '../lib.js';

const RESULTS = 2500;
const SEARCH = `https://www.linkedin.com/sales/search/people?query=(keywords%3ABench)&sandbox_results=${RESULTS}`;
const FIELDS = ['sn_id', 'first_name', 'last_name', 'name', 'headline', 'position', 'company_name'] as const;

export const dataSourcesScenario: Scenario = {
  name: 'data-sources',
  description: `a ${RESULTS.toLocaleString('en-US')}-result sandbox search into a list vs the CSV import writer on the same people`,
  async run(server, log) {
    const rows: BenchRow[] = [];
    const deps = await server.newDatabase('datasources');
    const { db } = deps.handle;
    const team = async (name: string) => {
      const { team_id: teamId, user_id: userId } = await deps.services.identity.createUserWithTeam({
        email: `${name}@bench.test`,
        teamName: name,
      });
      const list = await db
        .insertInto('lists')
        .values({ team_id: teamId, uuid: newId(), name })
        .returning('uuid')
        .executeTakeFirstOrThrow();
      return { teamId, userId, list: list.uuid };
    };

    // Baseline: the same people through the import's chunk writer, one chunk.
    const sandbox = createSandboxReader(deps.config.sandbox);
    const people: PersonResult[] = [];
    for (let page = 1; people.length < RESULTS; page++) {
      const outcome = await sandbox.searchPage(
        { teamId: 0, senderProfileUuid: newId(), at: new Date() },
        { type: 'sn_leads_search', url: SEARCH },
        page,
      );
      if (!outcome.ok) throw new Error(outcome.message);
      people.push(...(outcome.value as Extract<SearchPage, { kind: 'people' }>).people);
    }
    const columns: MappedColumn[] = FIELDS.map((field, index) => ({
      index,
      source: field,
      target: field,
      field: LEAD_TARGETS[field]!.field,
      kind: LEAD_TARGETS[field]!.kind,
    }));
    const importTeam = await team('import');
    const stageUuid = await selectInitialStageUuid(db, importTeam.teamId, 'lead');
    // The same people through the import's writer: prepare, then one chunk in one transaction.
    const writeAll = async () => {
      const { prepared } = prepareLeadRows(
        people.map((person, i) => ({
          row: i + 2,
          cells: FIELDS.map((field) => String(person[field] ?? '')),
        })),
        columns,
      );
      return db.transaction().execute((trx) =>
        writeLeadChunk(
          trx,
          {
            teamId: importTeam.teamId,
            userId: importTeam.userId,
            listUuid: importTeam.list,
            stageUuid,
            moveToList: false,
            updateIfExists: false,
            tagUuids: [],
            dataSourceUuid: null,
            columns,
          },
          prepared,
        ),
      );
    };
    const importStarted = performance.now();
    const counts = await writeAll();
    const importMs = performance.now() - importStarted;
    log(`import writer: ${counts.created} contacts in ${importMs.toFixed(0)} ms`);
    const dupStarted = performance.now();
    const dupCounts = await writeAll();
    const importDupMs = performance.now() - dupStarted;
    log(`import writer again: ${dupCounts.duplicate} duplicates in ${importDupMs.toFixed(0)} ms`);

    // The data source: a sandbox seat, the search, job runs until it completes.
    const sourceTeam = await team('source');
    const sender = await makeSender(db, sourceTeam.teamId);
    await makeSandboxSeat(db, sourceTeam.teamId, sender.uuid);
    const tag = await db
      .insertInto('tags')
      .values({ team_id: sourceTeam.teamId, uuid: newId(), name: 'Bench search' })
      .returning('uuid')
      .executeTakeFirstOrThrow();
    const runner = {
      db,
      clock: systemClock,
      readers: createLinkedInReaders({ db, config: deps.config, clock: systemClock }),
      pagesPerRun: deps.config.dataSources.pagesPerRun,
      waitMs: 60_000,
    };
    const runSource = async () => {
      const source = await deps.services.dataSources.createDataSource(sourceTeam.teamId, sourceTeam.userId, {
        type: 'sn_leads_search',
        list_uuid: sourceTeam.list,
        payload: { url: SEARCH },
        tags: [tag.uuid],
        sender_profile_uuid: sender.uuid,
      });
      const started = performance.now();
      let runs = 0;
      do runs++;
      while ((await runDataSource(runner, sourceTeam.teamId, source.uuid)) !== null);
      const ms = performance.now() - started;
      const metrics = (await deps.services.dataSources.dataSourceMetrics(sourceTeam.teamId, [source.uuid]))[
        source.uuid
      ]!;
      return { ms, runs, metrics };
    };
    const first = await runSource();
    const saved = await db
      .selectFrom('leads')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('team_id', '=', sourceTeam.teamId)
      .where('list_uuid', '=', sourceTeam.list)
      .executeTakeFirstOrThrow();
    if (first.metrics.saved_records !== RESULTS || saved.n !== RESULTS) {
      throw new Error(
        `data source saved ${first.metrics.saved_records} (${saved.n} in the list), expected ${RESULTS}`,
      );
    }
    log(`data source: ${RESULTS} saved in ${first.ms.toFixed(0)} ms over ${first.runs} job runs`);
    const again = await runSource();
    if (again.metrics.duplicate_records !== RESULTS) throw new Error('the second run saved someone twice');
    log(`same search again: ${again.metrics.duplicate_records} duplicates in ${again.ms.toFixed(0)} ms`);

    rows.push(
      {
        scenario: 'data-sources',
        metric: `${RESULTS.toLocaleString('en-US')}-result search into a list (ms, vs import writer)`,
        value: Math.round(first.ms),
        baseline: Math.round(importMs),
        unit: 'ms',
      },
      {
        scenario: 'data-sources',
        metric: 'search into a list (results/s)',
        value: Math.round(RESULTS / (first.ms / 1000)),
        unit: 'results/s',
      },
      {
        scenario: 'data-sources',
        metric: `same search again, all ${RESULTS.toLocaleString('en-US')} duplicates (ms, vs import writer)`,
        value: Math.round(again.ms),
        baseline: Math.round(importDupMs),
        unit: 'ms',
      },
    );
    return rows;
  },
};
