// A flow saved without a sender parks its contacts (no_sender); saving a version whose contact source
// names one lets them run again at once, on the new version.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildNodes,
  enroll,
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
} from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';

let h: EngineHarness;

// The flows API wakes enrollments at the database's now(): start the fake clock there.
beforeAll(async () => {
  h = await createEngineHarness({ start: new Date() });
});
afterAll(() => h.close());

describe('saving a version', () => {
  it('resumes contacts parked for want of a sender once the new version names one', async () => {
    const db = h.ctx.db;
    const team = h.user.teamId;
    const nodes = [
      {
        id: 1,
        type: 'linkedin_send_connection_request',
        payload: { template: 'Hi {{first_name}}' },
        next: { 1: 2 },
      },
      { id: 2, type: 'end' },
    ];
    const flow = await makeFlow(db, team, { senders: [], nodes });
    const leads = await makeContacts(db, team, 3, 'Parked');
    const rows = await enroll(
      db,
      team,
      flow,
      leads.map((l) => l.uuid),
      { at: h.clock.now() },
    );
    const uuids = rows.map((r) => r.uuid);
    const states = () =>
      db.selectFrom('flow_leads').select(['status', 'reason']).where('uuid', 'in', uuids).execute();
    await h.run(async () => (await states()).every((s) => s.status === 'paused'), { maxTicks: 50 });
    expect(await states()).toEqual(uuids.map(() => ({ status: 'paused', reason: 'no_sender' })));

    const sender = await makeSender(db, team);
    await makeSandboxSeat(db, team, sender.uuid);
    const res = await h.ctx.request(h.user, {
      method: 'POST',
      url: `/flows/api/flows/${flow.uuid}/flow-versions`,
      payload: {
        nodes: buildNodes(nodes),
        contact_sources: [
          { id: 1, name: null, rotation_strategy: 'fair', sender_profiles: [sender.uuid], after_id: 1 },
        ],
        first_common_node_id: 1,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await states()).toEqual(uuids.map(() => ({ status: 'in_progress', reason: null })));

    await h.run(async () => (await states()).every((s) => s.status === 'finished'));
    const sent = await db
      .selectFrom('sandbox_linkedin_actions')
      .select('lead_uuid')
      .where(
        'lead_uuid',
        'in',
        leads.map((l) => l.uuid),
      )
      .execute();
    expect(sent).toHaveLength(3);
  });
});
