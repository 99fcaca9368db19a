// Contacts at scale: a team of 1,000,000 contacts (the first 100,000 created through the HTTP API, the
// rest seeded with SQL) next to a team of 1,000. Measures bulk create and upsert rates, searches,
// counts, deep pages, a mass action over 100,000 contacts, and the small team's first page.
import { sql } from 'kysely';
import { Agent, request } from 'undici';
import { createJobCatalog } from '../../src/deps.js';
import { startWorker } from '../../src/jobs/runner.js';
import { systemClock } from '../../src/lib/clock.js';
import { createLogger } from '../../src/lib/logger.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import {
  type BenchRow,
  latencyRows as latency,
  listen,
  measureRuns,
  postAllFromWorker,
  type Scenario,
} from '../lib.js';
import { apiLead, sampleLastNames, seedLeads } from './crm-data.js';

const TOTAL = Number(process.env.BENCH_CRM_CONTACTS ?? 1_000_000);
const VIA_API = Math.min(TOTAL, Number(process.env.BENCH_CRM_API_CONTACTS ?? 100_000));
const BATCH = 1000;
const CREATE_CONCURRENCY = 4;
const RUNS = 60;

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of many shapes, read by field
type Body = any;

type Client = {
  post(path: string, body: unknown, key?: string): Promise<{ status: number; body: Body }>;
  get(path: string, key?: string): Promise<{ status: number; body: Body }>;
};

function client(baseUrl: string, defaultKey: string): Client {
  const dispatcher = new Agent({ connections: 16, pipelining: 1 });
  async function call(method: 'GET' | 'POST' | 'PUT', path: string, body: unknown, key: string) {
    const res = await request(`${baseUrl}${path}`, {
      method,
      dispatcher,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    const parsed = text ? JSON.parse(text) : null;
    if (res.statusCode >= 300)
      throw new Error(`${method} ${path} → ${res.statusCode}: ${text.slice(0, 300)}`);
    return { status: res.statusCode, body: parsed };
  }
  return {
    post: (path, body, key = defaultKey) =>
      call(path.endsWith('mass-action') ? 'PUT' : 'POST', path, body, key),
    get: (path, key = defaultKey) => call('GET', path, undefined, key),
  };
}

const latencyRows = (metric: string, durations: number[], goalMs?: number) =>
  latency('crm', metric, durations, goalMs === undefined ? {} : { goalMs });
const measure = (fn: (i: number) => Promise<unknown>) => measureRuns(RUNS, fn);

export const crmScenario: Scenario = {
  name: 'crm',
  description: `contacts: ${TOTAL.toLocaleString('en-US')} in one team next to a team of 1,000`,
  async run(server, log) {
    const deps = await server.newDatabase('crm');
    const { db } = deps.handle;
    const big = await deps.services.identity.createUserWithTeam({
      email: 'big@example.test',
      teamName: 'Big',
    });
    const small = await deps.services.identity.createUserWithTeam({
      email: 'small@example.test',
      teamName: 'Small',
    });
    const { app, url } = await listen(deps);
    const http = client(url, big.api_key);
    const rows: BenchRow[] = [];

    const list = async (teamId: number, name: string) =>
      (await http.post('/leads/api/lists', { name }, teamId === big.team_id ? big.api_key : small.api_key))
        .body.uuid as string;
    const mainList = await list(big.team_id, 'Main');
    const rareList = await list(big.team_id, 'Rare');
    const smallList = await list(small.team_id, 'Small main');
    const tag = async (name: string) =>
      (
        await sql<{
          uuid: string;
        }>`insert into tags (team_id, uuid, name) values (${big.team_id}, leadflow_uuid_v7(), ${name}) returning uuid`.execute(
          db,
        )
      ).rows[0]!.uuid;
    const tenthTag = await tag('Every tenth');
    const hundredthTag = await tag('Every hundredth');
    const actionTag = await tag('Mass action');

    // 1. Bulk create through the API.
    log(`  creating ${VIA_API.toLocaleString('en-US')} contacts through POST /leads/api/leads...`);
    // The client runs in a worker thread with the bodies serialised beforehand, so its JSON work does
    // not share the server's event loop.
    const calls = Math.ceil(VIA_API / BATCH);
    const bodies = Array.from({ length: calls }, (_, call) =>
      JSON.stringify({
        list_uuid: mainList,
        leads: Array.from({ length: BATCH }, (_, i) => apiLead('api', call * BATCH + i, 'Every tenth')),
      }),
    );
    const createMs = await postAllFromWorker({
      url: `${url}/leads/api/leads`,
      headers: { authorization: `Bearer ${big.api_key}`, 'content-type': 'application/json' },
      bodies,
      concurrency: CREATE_CONCURRENCY,
      expectItems: BATCH,
    });
    const createRate = (calls * BATCH) / (createMs / 1000);
    log(`  bulk create: ${Math.round(createRate)} contacts/s`);

    // 2. The physical limit for the same end state, in the same run: the same number of calls as plain
    //    SQL inserts of 1,000 rows each (no HTTP, validation, dedup lookups or response) into the same
    //    table with the same indexes, from as many connections as the API run had.
    const stage = await selectInitialStageUuid(db, big.team_id, 'lead');
    const baselineRows = Math.min(TOTAL - VIA_API, VIA_API);
    const seedOptions = { teamId: big.team_id, mainList, rareList, stage, tenthTag, hundredthTag };
    let nextBatch = 0;
    const baselineStarted = performance.now();
    await Promise.all(
      Array.from({ length: CREATE_CONCURRENCY }, async () => {
        while (nextBatch * BATCH < baselineRows) {
          const start = VIA_API + nextBatch++ * BATCH;
          await seedLeads(db, {
            ...seedOptions,
            start,
            count: Math.min(BATCH, VIA_API + baselineRows - start),
          });
        }
      }),
    );
    const sqlRate =
      baselineRows > 0 ? baselineRows / ((performance.now() - baselineStarted) / 1000) : undefined;
    if (sqlRate) log(`  SQL insert baseline: ${Math.round(sqlRate)} rows/s`);
    rows.push({
      scenario: 'crm',
      metric: 'bulk create (1000 per call; baseline: SQL insert of the same batches)',
      value: createRate,
      unit: 'contacts/s',
      ...(sqlRate ? { baseline: sqlRate } : {}),
      goal: '>= 50,000 contacts/s',
      pass: createRate >= 50_000,
    });

    // 3. Seed the rest with SQL, then let the planner and the visibility map catch up.
    for (let start = VIA_API + baselineRows; start < TOTAL; start += 100_000) {
      const count = Math.min(100_000, TOTAL - start);
      await seedLeads(db, { ...seedOptions, start, count });
      log(`  seeded ${(start + count).toLocaleString('en-US')}`);
    }
    await http.post(
      '/leads/api/leads',
      { list_uuid: smallList, leads: Array.from({ length: 1000 }, (_, i) => apiLead('small', i)) },
      small.api_key,
    );
    await sql`vacuum analyze leads`.execute(db);

    // 4. Single upserts (new people and repeats).
    const upserts = await measure((i) =>
      http.post('/leads/api/leads/upsert', {
        list_uuid: mainList,
        lead: apiLead('upsert', i % 40),
      }),
    );
    rows.push({
      scenario: 'crm',
      metric: 'single upsert rate (sequential)',
      value: 1000 / (upserts.reduce((a, b) => a + b, 0) / upserts.length),
      unit: 'upserts/s',
    });
    rows.push(...latencyRows('upsert', upserts));

    // 5. Reads.
    const search = (body: unknown, key?: string) => http.post('/leads/api/leads/search', body, key);
    rows.push(
      ...latencyRows(
        'search list_uuid (1,000 of 1M)',
        await measure(() => search({ filter: { list_uuid: rareList } })),
        50,
      ),
    );
    const names = await sampleLastNames(db, big.team_id, RUNS + 3);
    rows.push(
      ...latencyRows(
        'search q (last name)',
        await measure((i) => search({ filter: { q: names[i % names.length]!.toLowerCase() } })),
        150,
      ),
    );
    rows.push(
      ...latencyRows('first page + exact total (1M)', await measure(() => search({ limit: 20 })), 100),
    );
    rows.push(
      ...latencyRows(
        'page 5,000 (offset 99,980)',
        await measure(() => search({ limit: 20, offset: 99_980 })),
      ),
    );
    const count = (filter: unknown) => http.post('/leads/api/leads/count', { filter });
    rows.push(
      ...latencyRows(
        'search tag (9,000 of 1M)',
        await measure(() => search({ filter: { tags: [hundredthTag] } })),
        50,
      ),
    );
    rows.push(
      ...latencyRows('count tag (9,000 of 1M)', await measure(() => count({ tags: [hundredthTag] })), 50),
    );
    // Not selective: a tenth of the team. Informational (see the module report for why it cannot be an index-only count).
    rows.push(...latencyRows('count tag (100,000 of 1M)', await measure(() => count({ tags: [tenthTag] }))));
    rows.push(
      ...latencyRows(
        'count list_uuid (1,000 of 1M)',
        await measure(() => http.post('/leads/api/leads/count', { filter: { list_uuid: rareList } })),
        50,
      ),
    );
    rows.push(
      ...latencyRows(
        'small team first page (1,000)',
        await measure(() => search({ limit: 20 }, small.api_key)),
        10,
      ),
    );

    // 6. A mass action over 100,000 contacts (above the synchronous limit: a background operation).
    const worker = await startWorker({
      db,
      pool: deps.handle.pool,
      jobs: createJobCatalog(deps.services, { db, config: deps.config, clock: systemClock }),
      ...deps.config.worker,
      pollIntervalMs: 100,
      log: createLogger('warn'),
    });
    try {
      const massStart = performance.now();
      const queued = await http.post('/leads/api/leads/mass-action', {
        type: 'contact_add_tags',
        payload: { tag_uuid: actionTag },
        filter: { tags: [tenthTag] },
      });
      let affected: number = queued.body.affected;
      const operation = queued.body.operation;
      if (operation) {
        let state = operation;
        while (state.status !== 'done' && state.status !== 'failed') {
          await new Promise((resolve) => setTimeout(resolve, 200));
          state = (await http.get(`/leads/api/bulk-operations/${operation.uuid}`)).body;
        }
        if (state.status !== 'done') throw new Error(`mass action failed: ${state.error}`);
        affected = state.affected;
      }
      const massSeconds = (performance.now() - massStart) / 1000;
      log(
        `  mass action: ${affected} contacts in ${massSeconds.toFixed(1)} s (${operation ? 'background' : 'in the request'})`,
      );
      rows.push({
        scenario: 'crm',
        metric: `mass action add tag (${affected} contacts)`,
        value: massSeconds,
        unit: 's',
      });
      rows.push({
        scenario: 'crm',
        metric: 'mass action rate',
        value: affected / massSeconds,
        unit: 'contacts/s',
      });
    } finally {
      await worker.stop();
      await app.close();
    }
    return rows;
  },
};
