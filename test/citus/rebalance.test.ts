// Moving a live team to the other worker (npm run test:citus; skipped on plain PostgreSQL): while the
// API takes a stream of writes and reads for the team and the engine runs its flow, the team's shard
// group moves with citus_move_shard_placement. No request fails, every accepted write is there, every
// invitation the engine sends is sent once (counted on the sandbox network's side) and its event reaches
// the webhook receiver (the delivery jobs were not lost).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerHandle } from '../../src/jobs/runner.js';
import { type Receiver, startReceiver } from '../../src/modules/webhooks/receiver.test-support.js';
import { enroll, makeContacts, makeFlow, makeSandboxSeat, makeSender } from '../automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../engine-harness.js';
import { makeList } from '../factories.js';
import { onCitus } from './on-citus.js';

const CONTACTS = 60;

describe.skipIf(!onCitus('the live shard move test'))('moving a live team to another worker', () => {
  let h: EngineHarness;
  let receiver: Receiver;
  let worker: WorkerHandle;

  beforeAll(async () => {
    receiver = await startReceiver();
    h = await createEngineHarness({ env: { LEADFLOW_WEBHOOKS_ALLOW_PRIVATE: 'true' } });
    worker = await h.ctx.startWorkers();
  });
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
    await receiver?.close();
  });

  async function placementOf(teamId: number) {
    const { rows } = await sql<{ shardid: number; nodename: string; nodeport: number }>`
      select shardid, nodename, nodeport from citus_shards
      where table_name = 'leads'::regclass and shardid = get_shard_id_for_distribution_column('leads', ${teamId}::bigint)
    `.execute(h.ctx.db);
    return rows[0]!;
  }

  it('keeps every request, job and action while the shard group moves', async () => {
    const { ctx, user } = h;
    const teamId = user.teamId;
    const hook = await ctx.request(user, {
      method: 'POST',
      url: '/integrations/api/webhooks',
      payload: {
        name: 'Invitations',
        event: 'sender_profile_sent_linkedin_connection_request',
        target_url: `${receiver.url}/hook`,
      },
    });
    expect(hook.statusCode).toBe(201);
    const sender = await makeSender(ctx.db, teamId);
    await makeSandboxSeat(ctx.db, teamId, sender.uuid);
    const flow = await makeFlow(ctx.db, teamId, {
      senders: [sender.uuid],
      nodes: [
        {
          id: 1,
          type: 'linkedin_send_connection_request',
          payload: { template: 'Hi {{first_name}}' },
          next: { 1: 2 },
        },
        { id: 2, type: 'end' },
      ],
    });
    const leads = await makeContacts(ctx.db, teamId, CONTACTS, 'Moved');
    const enrolled = await enroll(
      ctx.db,
      teamId,
      flow,
      leads.map((l) => l.uuid),
      { at: h.clock.now() },
    );
    const list = await makeList(ctx.db, teamId, 'During the move');

    const from = await placementOf(teamId);
    const { rows: nodes } = await sql<{ nodename: string; nodeport: number }>`
      select nodename, nodeport from pg_dist_node where groupid <> 0 and noderole = 'primary' and nodeport <> ${from.nodeport}
    `.execute(ctx.db);
    const to = nodes[0]!;

    // The API: writes and reads for the team, back to back, until the move is over.
    let moving = true;
    const failures: string[] = [];
    const created: string[] = [];
    const api = (async () => {
      for (let i = 0; moving || i < 5; i += 1) {
        const write = await ctx.request(user, {
          method: 'POST',
          url: '/leads/api/leads',
          payload: {
            list_uuid: list.uuid,
            leads: [{ first_name: `During${i}`, linkedin_id: `during-${i}` }],
          },
        });
        if (write.statusCode !== 200) failures.push(`create ${write.statusCode} ${write.body}`);
        else created.push(write.json()[0].uuid);
        const read = await ctx.request(user, { method: 'POST', url: '/leads/api/leads/search', payload: {} });
        if (read.statusCode !== 200) failures.push(`search ${read.statusCode} ${read.body}`);
      }
    })();
    // The engine works through the flow meanwhile.
    const engine = h.run(
      async () => {
        const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from flow_leads where team_id = ${teamId} and status in ('in_progress', 'paused')
      `.execute(ctx.db);
        return rows[0]!.n === 0 && !moving;
      },
      { maxTicks: 100_000 },
    );

    await new Promise((resolve) => setTimeout(resolve, 300));
    await sql`
      select citus_move_shard_placement(${from.shardid}::bigint, ${from.nodename}, ${from.nodeport}::int,
        ${to.nodename}, ${to.nodeport}::int, shard_transfer_mode => 'force_logical')
    `.execute(ctx.db);
    moving = false;
    await Promise.all([api, engine]);

    expect(failures).toEqual([]);
    expect((await placementOf(teamId)).nodeport).toBe(to.nodeport);
    // Every accepted write is there.
    const { rows: stored } = await sql<{ n: number }>`
      select count(*)::int as n from leads where team_id = ${teamId} and uuid = any(${created}::uuid[])
    `.execute(ctx.db);
    expect(stored[0]!.n).toBe(created.length);
    // Every enrollment finished with exactly one invitation sent, counted on the sandbox network's side.
    const { rows: done } = await sql<{ status: string; n: number }>`
      select status, count(*)::int as n from flow_leads where team_id = ${teamId} group by status
    `.execute(ctx.db);
    expect(done).toEqual([{ status: 'finished', n: enrolled.length }]);
    const { rows: sent } = await sql<{ leads: number; actions: number }>`
      select count(distinct lead_uuid)::int as leads, count(*)::int as actions from sandbox_linkedin_actions
      where team_id = ${teamId} and action = 'linkedin_send_connection_request'
    `.execute(ctx.db);
    expect(sent[0]).toEqual({ leads: CONTACTS, actions: CONTACTS });
    // Every invitation's event reached the receiver (at least once): the delivery jobs survived the move.
    const delivered = () =>
      new Set(
        receiver.requests
          .filter((r) => r.path === '/hook')
          .map((r) => (JSON.parse(r.body) as { contact: { uuid: string } }).contact.uuid),
      );
    const deliveries = async () =>
      (
        await sql<{ status: string; n: number }>`
          select status, count(*)::int as n from webhook_deliveries where team_id = ${teamId} group by 1
        `.execute(ctx.db)
      ).rows;
    const deadline = Date.now() + 90_000;
    for (;;) {
      const settled =
        JSON.stringify(await deliveries()) === JSON.stringify([{ status: 'succeeded', n: CONTACTS }]);
      if ((settled && delivered().size === CONTACTS) || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const hooks = receiver.requests.filter((r) => r.path === '/hook').length;
    expect(delivered(), `${hooks} requests`).toEqual(new Set(leads.map((l) => l.uuid)));
    // Each delivery recorded as delivered (an attempt whose outcome is not recorded is sent again).
    expect(await deliveries()).toEqual([{ status: 'succeeded', n: CONTACTS }]);
  }, 300_000);
});
