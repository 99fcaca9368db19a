// gs_enqueue_for_enrichment in a running flow: the engine queues its contacts through the enrichment
// queue and credits (contacts the balance cannot cover are recorded as failed, the flow moves on), the
// worker fills them, and outdated_only leaves recently enriched contacts out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enroll,
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
  type NodeSpec,
} from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';
import { createLinkedInReaders } from '../../deps.js';
import { runEnrichment } from './enrichment.worker.js';

let h: EngineHarness;
let senderUuid: string;

beforeAll(async () => {
  h = await createEngineHarness({ env: { LEADFLOW_SANDBOX_PROFILE_MISSING_RATE: '0' } });
  const sender = await makeSender(h.ctx.db, h.user.teamId);
  await makeSandboxSeat(h.ctx.db, h.user.teamId, sender.uuid);
  senderUuid = sender.uuid;
});
afterAll(() => h.close());

const db = () => h.ctx.db;
const team = () => h.user.teamId;

async function runFlow(nodes: NodeSpec[], leadUuids: string[]) {
  const flow = await makeFlow(db(), team(), { senders: [senderUuid], nodes });
  const rows = await enroll(db(), team(), flow, leadUuids, { at: h.clock.now() });
  const uuids = rows.map((r) => r.uuid);
  await h.run(async () => {
    const live = await db()
      .selectFrom('flow_leads')
      .select('uuid')
      .where('uuid', 'in', uuids)
      .where('status', 'in', ['in_progress', 'paused'])
      .execute();
    return live.length === 0;
  });
  return uuids;
}

const queue = () =>
  db()
    .selectFrom('enrichment_queue')
    .select(['object_uuid', 'status', 'error', 'source'])
    .where('team_id', '=', team())
    .execute();

describe('gs_enqueue_for_enrichment', () => {
  it('queues the contacts it can pay for, fails the rest in the queue, and the worker fills them', async () => {
    await h.ctx.services.identity.addCredits(team(), 1);
    const leads = await makeContacts(db(), team(), 2, 'Flowenrich');
    const nodes: NodeSpec[] = [
      { id: 1, type: 'gs_enqueue_for_enrichment', payload: { run_settings: 'all_contacts' }, next: { 1: 2 } },
      { id: 2, type: 'end' },
    ];
    const enrollments = await runFlow(
      nodes,
      leads.map((l) => l.uuid),
    );
    const tasks = await db()
      .selectFrom('tasks')
      .select(['type', 'status'])
      .where('flow_lead_uuid', 'in', enrollments)
      .where('type', '=', 'gs_enqueue_for_enrichment')
      .execute();
    expect(tasks).toEqual([
      { type: 'gs_enqueue_for_enrichment', status: 'closed' },
      { type: 'gs_enqueue_for_enrichment', status: 'closed' },
    ]);
    const entries = await queue();
    expect(entries.map((e) => e.status).sort()).toEqual(['failed', 'pending']);
    expect(entries.find((e) => e.status === 'failed')!.error).toContain('Not enough enrichment credits');
    expect(entries.every((e) => e.source === 'flow')).toBe(true);

    const readers = createLinkedInReaders({ db: db(), config: h.ctx.config, clock: h.clock });
    const result = await runEnrichment({ db: db(), clock: h.clock, readers }, team());
    expect(result.done).toBe(1);
    const enriched = entries.find((e) => e.status === 'pending')!.object_uuid;
    const lead = await db()
      .selectFrom('leads')
      .selectAll()
      .where('uuid', '=', enriched)
      .executeTakeFirstOrThrow();
    expect(lead.linkedin_status).toBe('ok');
    expect(lead.headline).toBeTruthy();
    const credits = await db()
      .selectFrom('teams')
      .select('credits_advanced_enrichment')
      .where('id', '=', team())
      .executeTakeFirstOrThrow();
    expect(Number(credits.credits_advanced_enrichment)).toBe(0);

    // outdated_only: the contact enriched a moment ago is not queued again.
    await h.ctx.services.identity.addCredits(team(), 5);
    await runFlow(
      [
        {
          id: 1,
          type: 'gs_enqueue_for_enrichment',
          payload: { run_settings: 'outdated_only', outdated_older_than_in_seconds: 2592000 },
          next: { 1: 2 },
        },
        { id: 2, type: 'end' },
      ],
      [enriched],
    );
    expect((await queue()).filter((e) => e.object_uuid === enriched)).toHaveLength(1);
  });
});
