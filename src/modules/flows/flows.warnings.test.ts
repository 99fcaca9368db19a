// A flow names, before it is started, each enabled sender of its sources that cannot take its steps: no
// active mailbox for an e-mail step, no running LinkedIn seat for a LinkedIn step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxSeat } from '../../../test/automation-factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { createFlow, linearTree, makeSender, messageStep, saveVersion, source } from './flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
});
afterAll(() => ctx.close());

const emailStep = {
  type: 'email_send_message',
  payload: { subject: 'Hi', template: 'Hello {{first_name}}' },
};

async function makeMailbox(senderUuid: string, status: 'active' | 'inactive') {
  await ctx.db
    .insertInto('mailboxes')
    .values({
      team_id: alice.teamId,
      uuid: newId(),
      sender_profile_uuid: senderUuid,
      email: `box-${newId().slice(-12)}@example.test`,
      sender_name: 'Sam',
      provider: 'smtp',
      connection_settings: '{}',
      status,
    })
    .execute();
}

async function warningsOf(flowUuid: string) {
  const res = await ctx.request(alice, { method: 'GET', url: `/flows/api/flows/${flowUuid}` });
  expect(res.statusCode).toBe(200);
  return res.json().warnings as Array<{ code: string; message: string; sender_profile_uuid?: string }>;
}

describe('sender warnings', () => {
  it('names the sender without an active mailbox for e-mail steps and without a running seat for LinkedIn steps', async () => {
    const ready = await makeSender(ctx, alice.teamId);
    await makeMailbox(ready.uuid, 'active');
    await makeSandboxSeat(ctx.db, alice.teamId, ready.uuid);
    const bare = await makeSender(ctx, alice.teamId);
    await makeMailbox(bare.uuid, 'inactive');
    const off = await makeSender(ctx, alice.teamId, 'disabled');
    const flow = await createFlow(ctx, alice);
    const saved = await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([messageStep(), emailStep]),
      contact_sources: [source({ sender_profiles: [ready.uuid, bare.uuid, off.uuid] })],
    });
    expect(saved.statusCode, saved.body).toBe(201);

    const warnings = await warningsOf(flow.uuid);
    expect(warnings.map((w) => [w.code, w.sender_profile_uuid])).toEqual([
      ['sender_without_mailbox', bare.uuid],
      ['sender_without_seat', bare.uuid],
    ]);
    expect(warnings[0]!.message).toContain(`Sender profile Sam (${bare.uuid}) has no active mailbox`);
    expect(warnings[1]!.message).toContain('no running LinkedIn seat');

    // A tree without e-mail steps does not ask for a mailbox; a seat that runs answers the other.
    await makeSandboxSeat(ctx.db, alice.teamId, bare.uuid);
    await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([messageStep()]),
      contact_sources: [source({ sender_profiles: [ready.uuid, bare.uuid] })],
    });
    expect(await warningsOf(flow.uuid)).toEqual([]);
  });

  it('says it on the list too, and not for a seat that is not running', async () => {
    const sender = await makeSender(ctx, alice.teamId);
    await ctx.db
      .insertInto('linkedin_browsers')
      .values({
        team_id: alice.teamId,
        sender_profile_uuid: sender.uuid,
        driver: 'sandbox',
        status: 'stopped',
      })
      .execute();
    const flow = await createFlow(ctx, alice);
    await saveVersion(ctx, alice, flow.uuid, {
      nodes: linearTree([messageStep()]),
      contact_sources: [source({ sender_profiles: [sender.uuid] })],
    });
    const list = await ctx.request(alice, {
      method: 'GET',
      url: `/flows/api/flows?filter[uuid]=${flow.uuid}`,
    });
    expect(list.json().data[0].warnings).toMatchObject([
      { code: 'sender_without_seat', sender_profile_uuid: sender.uuid },
    ]);
  });
});
