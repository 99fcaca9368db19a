// Message rendering as the automation engine does it: load a batch of contacts (with companies and
// custom fields) in one statement, build each contact's scope, render a realistic template (spintax,
// conditionals, filters, custom fields). Baselines measured in the same run: plain string replacement of
// the same variables (what a renderer without Liquid would cost) and a bare `select` of the batch.
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { composeMessage } from '../../src/modules/ai-templates/ai-message.js';
import { startLlmStandIn } from '../../src/modules/llm/llm.stand-in.js';
import { createLlmClient } from '../../src/modules/llm/openai-client.js';
import { selectInitialStageUuid } from '../../src/modules/pipeline-stages/pipeline-stages.defaults.js';
import { renderTemplate } from '../../src/modules/templates/render/render.js';
import { buildScope } from '../../src/modules/templates/render/scope.js';
import {
  type ContactTemplateData,
  loadContactTemplateData,
  loadSenderTemplateData,
} from '../../src/modules/templates/template-data.repository.js';
import { type BenchRow, median, percentile, type Scenario } from '../lib.js';
import { seedLeads } from './crm-data.js';

const CONTACTS = Number(process.env.BENCH_TEMPLATES_CONTACTS ?? 100_000);
const BATCH = 500;
const BATCHES = 40;

const TEMPLATE =
  '{Hi|Hello|Hey} {{ first_name | default: "there" }},\n\n' +
  '{% if company.industry %}I work with a lot of {{ company.industry | downcase }} teams' +
  '{% else %}I came across {{ company }}{% endif %} and your role as {{ position }} caught my eye. ' +
  '{% if cf_segment == "enterprise" %}{Teams your size|Companies like yours} {usually|often} ' +
  'struggle with {{ custom_fields.Pain | default: "scaling outreach" }}.{% endif %}\n\n' +
  '{Would you be open to|Are you up for} a {quick|short} chat {this week|next week}?\n\n{{ sender.first_name }}';

/** The same message without Liquid or spintax: each variable replaced by a plain `replace`. */
function plainRender(data: ContactTemplateData, sender: string): string {
  return 'Hi {first_name},\n\nI came across {company} and your role as {position} caught my eye.\n\n{sender}'
    .replace('{first_name}', String(data.contact.first_name ?? 'there'))
    .replace('{company}', String(data.company?.name ?? data.contact.company_name ?? ''))
    .replace('{position}', String(data.contact.position ?? ''))
    .replace('{sender}', sender);
}

export const templatesScenario: Scenario = {
  name: 'templates',
  description: `message rendering (Liquid + spintax) and the batch loader over ${CONTACTS.toLocaleString('en-US')} contacts`,
  async run(server, log) {
    const deps = await server.newDatabase('templates');
    const { db } = deps.handle;
    const team = await deps.services.identity.createUserWithTeam({ email: 't@example.test', teamName: 'T' });
    const teamId = team.team_id;
    const stage = await selectInitialStageUuid(db, teamId, 'lead');
    const list = await deps.services.lists.createList(teamId, 'Main');
    const tag = await deps.services.tags.createTag(teamId, { name: 'Tenth' });
    await seedLeads(db, {
      teamId,
      start: 0,
      count: CONTACTS,
      mainList: list.uuid,
      rareList: list.uuid,
      stage,
      tenthTag: tag.uuid,
    });
    // Ten contact custom fields and two company ones; companies linked to every contact.
    const owner = { teamId, userId: team.user_id };
    for (const name of ['Segment', 'Pain', ...Array.from({ length: 8 }, (_, i) => `Field${i}`)]) {
      await deps.services.customFields.createField(owner, { name, object: 'lead' });
    }
    await deps.services.customFields.createField(owner, { name: 'Tier', object: 'company' });
    await deps.services.customFields.createField(owner, { name: 'Region', object: 'company' });
    await sql`
      update leads l set custom_fields = (
        select jsonb_object_agg(f.uuid::text, case when f.name = 'Segment' then
          case when l.ln_member_id is null and abs(hashtext(l.uuid::text)) % 2 = 0 then 'enterprise' else 'smb' end
          else f.name || '-value' end)
        from custom_fields f where f.team_id = l.team_id and f.object = 'lead')
      where l.team_id = ${teamId}
    `.execute(db);
    await sql`
      insert into companies (team_id, uuid, name, domain, industry, custom_fields)
      select ${teamId}, leadflow_uuid_v7(), company_name, lower(replace(company_name, ' ', '')) || '.com',
        case when abs(hashtext(company_name)) % 3 = 0 then null else 'Software' end, '{}'
      from (select distinct company_name from leads where team_id = ${teamId}) c
    `.execute(db);
    await sql`
      update leads l set company_uuid = c.uuid from companies c
      where l.team_id = ${teamId} and c.team_id = l.team_id and c.name = l.company_name
    `.execute(db);
    await sql`vacuum analyze leads`.execute(db);
    await sql`vacuum analyze companies`.execute(db);
    await sql`
      insert into sender_profiles (team_id, uuid, first_name, last_name, schedule)
      values (${teamId}, leadflow_uuid_v7(), 'Max', 'Mustermann', '{"timezone":"UTC","timeblocks":[]}')
    `.execute(db);
    log(`  seeded ${CONTACTS.toLocaleString('en-US')} contacts`);

    const senderUuid = (
      await db
        .selectFrom('sender_profiles')
        .select('uuid')
        .where('team_id', '=', teamId)
        .executeTakeFirstOrThrow()
    ).uuid;
    const { rows: sample } = await sql<{ uuid: string }>`
      select uuid from leads where team_id = ${teamId} order by random() limit ${BATCH * BATCHES}
    `.execute(db);
    const batches = Array.from({ length: BATCHES }, (_, i) =>
      sample.slice(i * BATCH, (i + 1) * BATCH).map((r) => r.uuid),
    );

    // Loader: one statement per batch, against a bare select of the same rows.
    const loadMs: number[] = [];
    const bareMs: number[] = [];
    const loaded: ContactTemplateData[] = [];
    for (const batch of batches) {
      let started = performance.now();
      await sql`select * from leads where team_id = ${teamId} and uuid = any(${batch}::uuid[])`.execute(db);
      bareMs.push(performance.now() - started);
      started = performance.now();
      const data = await loadContactTemplateData(db, teamId, batch);
      loadMs.push(performance.now() - started);
      loaded.push(...data.values());
    }
    const sender = (await loadSenderTemplateData(db, teamId, [senderUuid])).get(senderUuid)!;

    // Rendering: every loaded contact, seeded by a task-like id; three passes, the median counts.
    const check = renderTemplate(TEMPLATE, buildScope({ ...loaded[0]!, sender }), { seed: 'x' });
    if (!check.text.includes('Max') || check.unknown.length > 0)
      throw new Error(`bad render: ${JSON.stringify(check)}`);
    const renderRates: number[] = [];
    const plainRates: number[] = [];
    let checksum = 0;
    for (let pass = 0; pass < 3; pass++) {
      let started = performance.now();
      for (let i = 0; i < loaded.length; i++) {
        const scope = buildScope({ ...loaded[i]!, sender });
        checksum += renderTemplate(TEMPLATE, scope, { seed: `task-${i}` }).text.length;
      }
      renderRates.push(loaded.length / ((performance.now() - started) / 1000));
      started = performance.now();
      for (let i = 0; i < loaded.length; i++) checksum += plainRender(loaded[i]!, 'Max').length;
      plainRates.push(loaded.length / ((performance.now() - started) / 1000));
    }
    log(`  rendered ${(loaded.length * 3).toLocaleString('en-US')} messages (checksum ${checksum})`);
    const renderRate = median(renderRates);

    const rows: BenchRow[] = [
      {
        scenario: 'templates',
        metric: 'renders per second (scope + Liquid + spintax, one core)',
        value: renderRate,
        unit: '/s',
        baseline: median(plainRates),
        goal: '> 10,000/s',
        pass: renderRate > 10_000,
      },
      {
        scenario: 'templates',
        metric: `load a batch of ${BATCH} contacts p50`,
        value: median(loadMs),
        unit: 'ms',
        baseline: median(bareMs),
      },
      {
        scenario: 'templates',
        metric: `load a batch of ${BATCH} contacts p95`,
        value: percentile(loadMs, 95),
        unit: 'ms',
        baseline: percentile(bareMs, 95),
        goal: 'p95 < 100 ms',
        pass: percentile(loadMs, 95) < 100,
      },
    ];
    rows.push(...(await llmRenders(loaded, sender, log)));
    return rows;
  },
};

const LLM_DELAY_MS = 50;
const LLM_CONCURRENCY = 8;
const LLM_RENDERS = 400;

/**
 * Renders with the AI part against the local stand-in LLM (each answer after LLM_DELAY_MS), many at once
 * as the engine would: throughput against the ceiling the concurrency limit allows (concurrency / delay),
 * and the most calls the stand-in saw in flight (must equal the limit).
 */
async function llmRenders(
  loaded: ContactTemplateData[],
  sender: NonNullable<Parameters<typeof buildScope>[0]['sender']>,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const standIn = await startLlmStandIn();
  try {
    standIn.answer(() => ({ content: 'Hi! Short AI opener.', delayMs: LLM_DELAY_MS }));
    const llm = createLlmClient(
      loadConfig({ LEADFLOW_LLM_BASE_URL: standIn.url, LEADFLOW_LLM_CONCURRENCY: String(LLM_CONCURRENCY) })
        .llm,
    );
    const template = {
      type: 'message' as const,
      subject: null,
      body: TEMPLATE,
      fallback_body: null,
      prompt: 'Write a two-sentence opener for {{first_name}}, {{position}} at {{company}}.',
      llm_config: null,
      enable_validation: false,
      validation_prompt: null,
      validation_llm_config: null,
      enable_fallback: true,
      settings: null,
    };
    // Warm-up: the HTTP connections to the endpoint are opened once per process, not per render.
    await Promise.all(Array.from({ length: LLM_CONCURRENCY * 2 }, () => llm.complete({ messages: [] })));
    standIn.reset();
    standIn.answer(() => ({ content: 'Hi! Short AI opener.', delayMs: LLM_DELAY_MS }));
    // Baseline in the same run: bare client calls, same count, delay and limit (no templates). Three rounds
    // of each, interleaved, medians compared: the machine is shared and single rounds are noisy.
    const bareRates: number[] = [];
    const rates: number[] = [];
    let answers: Awaited<ReturnType<typeof composeMessage>>[] = [];
    standIn.reset();
    standIn.answer(() => ({ content: 'Hi! Short AI opener.', delayMs: LLM_DELAY_MS }));
    for (let round = 0; round < 3; round++) {
      let started = performance.now();
      await Promise.all(
        Array.from({ length: LLM_RENDERS }, () =>
          llm.complete({ messages: [{ role: 'user', content: 'hi' }] }),
        ),
      );
      bareRates.push(LLM_RENDERS / ((performance.now() - started) / 1000));
      started = performance.now();
      answers = await Promise.all(
        loaded
          .slice(0, LLM_RENDERS)
          .map((data, i) =>
            composeMessage(template, buildScope({ ...data, sender }), { llm, seed: `t${i}` }),
          ),
      );
      rates.push(LLM_RENDERS / ((performance.now() - started) / 1000));
    }
    const bareRate = median(bareRates);
    const ai = answers.filter((answer) => answer.final_source === 'ai').length;
    log(`  ${ai}/${answers.length} AI renders, at most ${standIn.maxInFlight} LLM calls in flight`);
    const ceiling = LLM_CONCURRENCY / (LLM_DELAY_MS / 1000);
    const rate = median(rates);
    log(`  ceiling of the limit: ${ceiling}/s; bare client calls: ${bareRate.toFixed(0)}/s`);
    return [
      {
        scenario: 'templates',
        metric: `AI renders, stand-in LLM (${LLM_DELAY_MS} ms, limit ${LLM_CONCURRENCY}; baseline: bare calls)`,
        value: rate,
        unit: '/s',
        baseline: bareRate,
        goal: '> 90% of bare calls, all AI',
        pass: rate > 0.9 * bareRate && ai === answers.length,
      },
      {
        scenario: 'templates',
        metric: 'most LLM calls in flight',
        value: standIn.maxInFlight,
        unit: 'calls',
        goal: `= ${LLM_CONCURRENCY}`,
        pass: standIn.maxInFlight === LLM_CONCURRENCY,
      },
    ];
  } finally {
    await standIn.close();
  }
}
