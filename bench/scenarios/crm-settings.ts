// Tags, custom fields, pipeline stages and blacklists next to a team of 1,000,000 contacts (seeded with
// SQL): every operation that touches the team's contacts must stay an index-served statement, so its
// latency depends on the rows it changes, not on the size of the team.
import { sql } from 'kysely';
import { Agent, request } from 'undici';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import { type BenchRow, listen, percentile, type Scenario, timeRuns } from '../lib.js';
import { seedLeads } from './crm-data.js';

const TOTAL = Number(process.env.BENCH_CRM_SETTINGS_CONTACTS ?? 1_000_000);
const RUNS = 30;

function client(baseUrl: string, key: string) {
  const dispatcher = new Agent({ connections: 4 });
  return async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => {
    const res = await request(`${baseUrl}${path}`, {
      method,
      dispatcher,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300)
      throw new Error(`${method} ${path} → ${res.statusCode}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
}

function latency(metric: string, durations: number[], goalMs: number): BenchRow[] {
  const p95 = percentile(durations, 95);
  return [
    { scenario: 'crm-settings', metric: `${metric} p50`, value: percentile(durations, 50), unit: 'ms' },
    {
      scenario: 'crm-settings',
      metric: `${metric} p95`,
      value: p95,
      unit: 'ms',
      goal: `p95 < ${goalMs} ms`,
      pass: p95 < goalMs,
    },
  ];
}

export const crmSettingsScenario: Scenario = {
  name: 'crm-settings',
  description: `tags, custom fields, stages and blacklists over ${TOTAL.toLocaleString('en-US')} contacts`,
  async run(server, log) {
    const deps = await server.newDatabase('crm_settings');
    const { db } = deps.handle;
    const team = await deps.services.identity.createUserWithTeam({
      email: 'cs@example.test',
      teamName: 'Big',
    });
    const { app, url } = await listen(deps);
    const call = client(url, team.api_key);
    const rows: BenchRow[] = [];

    const mainList = (await call('POST', '/leads/api/lists', { name: 'Main' })).uuid as string;
    const rareList = (await call('POST', '/leads/api/lists', { name: 'Rare' })).uuid as string;
    const tenthTag = (await call('POST', '/leads/api/tags', { name: 'Every tenth' })).uuid as string;
    const stage = await selectInitialStageUuid(db, team.team_id, 'lead');
    for (let start = 0; start < TOTAL; start += 100_000) {
      const count = Math.min(100_000, TOTAL - start);
      await seedLeads(db, { teamId: team.team_id, start, count, mainList, rareList, stage, tenthTag });
      log(`  seeded ${(start + count).toLocaleString('en-US')}`);
    }
    // A custom field set on 1% of the contacts.
    const field = (await call('POST', '/leads/api/custom-fields', { name: 'segment', object: 'lead' }))
      .uuid as string;
    await sql`
      update leads set custom_fields = jsonb_build_object(${field}::text, 'enterprise')
      where team_id = ${team.team_id} and work_email like '%00@%'
    `.execute(db);
    await sql`vacuum analyze leads`.execute(db);
    const sample = await sql<{ uuid: string; work_email: string; company_name: string }>`
      select uuid, work_email, company_name from leads where team_id = ${team.team_id}
      order by uuid limit ${RUNS}
    `.execute(db);

    rows.push(
      ...latency(
        'tag metrics (tag on 10% of contacts)',
        await timeRuns(RUNS, () => call('POST', '/leads/api/tags/metrics', { uuids: [tenthTag] })),
        1000,
      ),
    );
    rows.push(
      ...latency(
        'set a custom field value',
        await timeRuns(RUNS, (i) =>
          call('POST', '/leads/api/custom-field-values', {
            custom_field_uuid: field,
            object_type: 'lead',
            object_uuid: sample.rows[i]!.uuid,
            value: `v${i}`,
          }),
        ),
        50,
      ),
    );
    rows.push(
      ...latency(
        'blacklist an e-mail, then remove it',
        await timeRuns(RUNS, async (i) => {
          const entry = await call('POST', '/leads/api/leads-blacklist', {
            email: sample.rows[i]!.work_email,
          });
          await call('DELETE', `/leads/api/leads-blacklist/${entry.uuid}`);
        }),
        100,
      ),
    );
    rows.push(
      ...latency(
        'blacklist a company name (~50 contacts), then remove it',
        await timeRuns(10, async (i) => {
          const entry = await call('POST', '/leads/api/leads-blacklist', {
            company_name: sample.rows[i]!.company_name,
          });
          await call('DELETE', `/leads/api/leads-blacklist/${entry.uuid}`);
        }),
        250,
      ),
    );
    rows.push(
      ...latency(
        'create and delete a custom stage',
        await timeRuns(10, async (i) => {
          const created = await call('POST', '/leads/api/pipeline-stages', {
            name: `Stage ${i}`,
            object: 'lead',
            category: 'engaging',
          });
          await call('DELETE', `/leads/api/pipeline-stages/${created.uuid}`);
        }),
        100,
      ),
    );
    const [deleteField] = await timeRuns(1, () => call('DELETE', `/leads/api/custom-fields/${field}`));
    rows.push({
      scenario: 'crm-settings',
      metric: 'delete a custom field set on 1% of contacts',
      value: deleteField!,
      unit: 'ms',
      goal: '< 5000 ms',
      pass: deleteField! < 5000,
    });
    log(`  custom field delete: ${Math.round(deleteField!)} ms`);
    const [deleteTag] = await timeRuns(1, () => call('DELETE', `/leads/api/tags/${tenthTag}`));
    rows.push({
      scenario: 'crm-settings',
      metric: 'delete a tag carried by 10% of contacts',
      value: deleteTag!,
      unit: 'ms',
    });
    log(`  tag delete: ${Math.round(deleteTag!)} ms`);
    await app.close();
    return rows;
  },
};
