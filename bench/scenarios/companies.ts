// Companies at scale: a team of 200,000 companies (the first 20,000 created through the HTTP API,
// the rest seeded with SQL) and 100,000 contacts waiting to be linked. Measures bulk create (new and
// all-duplicate batches, with contact linking), lookups of 1,000 criteria, list filters and sorts,
// and mass actions over tens of thousands of companies.
import { sql } from 'kysely';
import { Agent, request } from 'undici';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import { type BenchRow, listen, percentile, type Scenario, timeRuns } from '../lib.js';

const TOTAL = Number(process.env.BENCH_COMPANIES ?? 200_000);
const VIA_API = Math.min(TOTAL, Number(process.env.BENCH_API_COMPANIES ?? 20_000));
const CONTACTS = Number(process.env.BENCH_COMPANY_CONTACTS ?? 100_000);
const BATCH = 1000;
const RUNS = 40;
const INDUSTRIES = ['Software', 'Retail', 'Logistics', 'Healthcare', 'Finance'];

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies read by field
type Body = any;

function client(baseUrl: string, key: string) {
  const dispatcher = new Agent({ connections: 8, pipelining: 1 });
  return async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Body> => {
    const res = await request(`${baseUrl}${path}`, {
      method,
      dispatcher,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300)
      throw new Error(`${method} ${path} → ${res.statusCode}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
}

/** Company n as a client sends it: every third by LinkedIn URL, the rest by website. */
function apiCompany(n: number) {
  return {
    name: `Company ${n}`,
    ...(n % 3 === 0
      ? { linkedin: `https://www.linkedin.com/company/company-${n}/` }
      : { website: `https://www.c${n}.example/about` }),
    industry: INDUSTRIES[n % INDUSTRIES.length],
    employees_range: '51-200',
    deal_size: n % 1000,
  };
}

function latency(metric: string, durations: number[], goalMs?: number): BenchRow[] {
  const p50 = percentile(durations, 50);
  const p95 = percentile(durations, 95);
  return [
    { scenario: 'companies', metric: `${metric} p50`, value: p50, unit: 'ms' },
    {
      scenario: 'companies',
      metric: `${metric} p95`,
      value: p95,
      unit: 'ms',
      ...(goalMs === undefined ? {} : { goal: `p95 < ${goalMs} ms`, pass: p95 < goalMs }),
    },
  ];
}

const measure = async (fn: (i: number) => Promise<unknown>) => {
  await timeRuns(3, fn);
  return timeRuns(RUNS, fn);
};

export const companiesScenario: Scenario = {
  name: 'companies',
  description: `companies: ${TOTAL.toLocaleString('en-US')} in one team, ${CONTACTS.toLocaleString('en-US')} contacts`,
  async run(server, log) {
    const deps = await server.newDatabase('companies');
    const { db } = deps.handle;
    const user = await deps.services.identity.createUserWithTeam({
      email: 'co@example.test',
      teamName: 'Co',
    });
    const teamId = user.team_id;
    const { app, url } = await listen(deps);
    const call = client(url, user.api_key);
    const rows: BenchRow[] = [];

    // Contacts that new companies will link to: half by company name, half by e-mail domain.
    const list = (await call('POST', '/leads/api/lists', { name: 'Bench' })).uuid as string;
    const leadStage = await selectInitialStageUuid(db, teamId, 'lead');
    await sql`insert into leads (team_id, uuid, list_uuid, pipeline_stage_uuid, name, company_name, work_email)
      select ${teamId}, leadflow_uuid_v7(), ${list}, ${leadStage}, 'Person ' || n,
             case when n % 2 = 0 then 'Company ' || (n * 2) end,
             case when n % 2 = 1 then 'p' || n || '@c' || (n * 2 + 1) || '.example' end
      from generate_series(1, ${CONTACTS}::int) n`.execute(db);

    // 1. Bulk create through the API (two requests at a time).
    const calls = Math.ceil(VIA_API / BATCH);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        while (next < calls) {
          const batch = next++;
          const companies = Array.from({ length: BATCH }, (_, i) => apiCompany(batch * BATCH + i));
          const created = await call('POST', '/leads/api/companies', { companies });
          if (created.length !== BATCH) throw new Error('create answered a short array');
        }
      }),
    );
    const createRate = (calls * BATCH) / ((performance.now() - started) / 1000);
    rows.push({
      scenario: 'companies',
      metric: 'bulk create (1000 per call, linking contacts)',
      value: createRate,
      unit: 'companies/s',
      goal: '>= 3,000 companies/s',
      pass: createRate >= 3_000,
    });
    log(`  bulk create: ${Math.round(createRate)} companies/s`);

    // 2. Seed the rest with SQL.
    const companyStage = await selectInitialStageUuid(db, teamId, 'company');
    await sql`insert into companies (team_id, uuid, pipeline_stage_uuid, name, domain, industry, employees_range, deal_size)
      select ${teamId}, leadflow_uuid_v7(), ${companyStage}, 'Company ' || n, 'c' || n || '.example',
             (${INDUSTRIES}::text[])[n % 5 + 1], '51-200', n % 1000
      from generate_series(${VIA_API}::int, ${TOTAL - 1}::int) n`.execute(db);
    await sql`vacuum analyze companies`.execute(db);
    await sql`vacuum analyze leads`.execute(db);
    const linked = await sql<{ n: number }>`select count(*)::int as n from leads
      where team_id = ${teamId} and company_uuid is not null`.execute(db);
    log(`  ${linked.rows[0]!.n} contacts linked by the API-created companies`);

    // 3. A batch that is all duplicates (matched and updated, not inserted).
    const again = await measure((i) =>
      call('POST', '/leads/api/companies', {
        companies: Array.from({ length: BATCH }, (_, j) => apiCompany(((i * BATCH + j) * 7) % VIA_API)),
      }),
    );
    rows.push(...latency('create 1000 duplicates (update path)', again, 2000));

    // 4. Lookups of 1,000 mixed criteria.
    const criteria = (i: number) =>
      Array.from({ length: 1000 }, (_, j) => {
        const n = (i * 1000 + j * 13) % TOTAL;
        return j % 4 === 0
          ? { website: `https://c${n}.example` }
          : j % 4 === 1
            ? { name: `company ${n}` }
            : j % 4 === 2
              ? { linkedin: `company-${n}` }
              : { name: `missing ${n}` };
      });
    rows.push(
      ...latency(
        'lookup 1000 criteria',
        await measure((i) => call('POST', '/leads/api/companies/lookup', { lookups: criteria(i) })),
        500,
      ),
    );

    // 5. Lists.
    const list20 = (filter: unknown, extra: Record<string, unknown> = {}) =>
      call('POST', '/leads/api/companies/list', { filter, limit: 20, ...extra });
    rows.push(
      ...latency(
        'list q (name or domain)',
        await measure((i) => list20({ q: `c${1000 + i * 37}.exa` })),
        100,
      ),
    );
    rows.push(
      ...latency('list name contains', await measure((i) => list20({ name: `pany ${5000 + i}` })), 100),
    );
    rows.push(
      ...latency('list domain exact', await measure((i) => list20({ domain: `www.c${i * 11}.example` })), 50),
    );
    rows.push(
      ...latency(
        'list industry sorted by deal_size + total (40,000 of 200,000)',
        await measure(() => list20({ industry: 'retail' }, { order_field: 'deal_size' })),
        300,
      ),
    );
    rows.push(
      ...latency(
        'first page + exact total',
        await measure(() => call('GET', '/leads/api/companies?limit=20')),
        200,
      ),
    );

    // 6. Mass actions.
    const tagUuid = (
      await sql<{ uuid: string }>`insert into tags (team_id, uuid, name)
        values (${teamId}, leadflow_uuid_v7(), 'Bench tag') returning uuid`.execute(db)
    ).rows[0]!.uuid;
    let t = performance.now();
    const tagged = await call('PUT', '/leads/api/companies/mass-action', {
      type: 'company_add_tags',
      payload: { tag_uuid: tagUuid },
      filter: { industry: 'Software' },
    });
    const tagMs = performance.now() - t;
    rows.push({
      scenario: 'companies',
      metric: `mass add tag (${tagged.affected} companies)`,
      value: tagMs,
      unit: 'ms',
      goal: '< 10,000 ms',
      pass: tagMs < 10_000,
    });
    t = performance.now();
    const deleted = await call('PUT', '/leads/api/companies/mass-action', {
      type: 'company_delete',
      filter: { industry: 'Logistics' },
    });
    const deleteMs = performance.now() - t;
    rows.push({
      scenario: 'companies',
      metric: `mass delete (${deleted.affected} companies)`,
      value: deleteMs,
      unit: 'ms',
      goal: '< 15,000 ms',
      pass: deleteMs < 15_000,
    });
    log(`  mass delete of ${deleted.affected} companies: ${Math.round(deleteMs)} ms`);

    await app.close();
    return rows;
  },
};
