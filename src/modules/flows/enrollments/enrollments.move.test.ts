// PUT /flows/api/flows/{flowUuid}/leads/{leadUuid}/move: leaving one flow and entering another is one
// transaction - when the other flow refuses the contact, it stays where it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { createLeads, listOf } from '../../leads/leads.fixtures.js';
import { createFlow, linearTree, messageStep, saveVersion, source } from '../flows.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

async function flowOf(user: TestUser): Promise<string> {
  const flow = await createFlow(ctx, user);
  const saved = await saveVersion(ctx, user, flow.uuid, {
    nodes: linearTree([messageStep(), messageStep('Again')]),
    contact_sources: [source(), source({ id: 2, after_id: 2 })],
  });
  expect(saved.statusCode, saved.body).toBe(201);
  return flow.uuid;
}

async function contactOf(user: TestUser): Promise<string> {
  const list = await listOf(ctx, user, `List ${Math.random()}`);
  const [lead] = await createLeads(ctx, user, list.uuid, [
    { first_name: 'Mo', last_name: `${Math.random()}` },
  ]);
  return lead!.uuid;
}

const enrol = (user: TestUser, flow: string, lead: string) =>
  ctx.request(user, { method: 'POST', url: `/flows/api/flows/${flow}/leads/${lead}` });
const move = (user: TestUser, flow: string, lead: string, payload: object) =>
  ctx.request(user, { method: 'PUT', url: `/flows/api/flows/${flow}/leads/${lead}/move`, payload });
const enrollmentsOf = (lead: string) =>
  ctx.db
    .selectFrom('flow_leads')
    .select(['flow_uuid', 'status', 'reason', 'contact_source_id', 'flow_node_id'])
    .where('lead_uuid', '=', lead)
    .execute();

describe('PUT /flows/api/flows/{flowUuid}/leads/{leadUuid}/move', () => {
  it('ends the enrollment here (reason moved) and enrols at the other flow entry, in one step', async () => {
    const [here, there] = [await flowOf(alice), await flowOf(alice)];
    const lead = await contactOf(alice);
    expect((await enrol(alice, here, lead)).statusCode).toBe(204);

    const res = await move(alice, here, lead, { to_flow_uuid: there.toUpperCase(), contact_source_id: 2 });
    expect(res.statusCode, res.body).toBe(204);
    expect(await enrollmentsOf(lead)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ flow_uuid: here, status: 'canceled', reason: 'moved' }),
        expect.objectContaining({
          flow_uuid: there,
          status: 'in_progress',
          reason: null,
          contact_source_id: 2,
          flow_node_id: 2,
        }),
      ]),
    );
    // Its enrollment here has ended: moving again is a 409, and a contact enters a flow once.
    expect((await move(alice, here, lead, { to_flow_uuid: there })).statusCode).toBe(409);
    const back = await move(alice, there, lead, { to_flow_uuid: here });
    expect(back.statusCode).toBe(409);
    expect(await enrollmentsOf(lead)).toContainEqual(
      expect.objectContaining({ flow_uuid: there, status: 'in_progress' }),
    );
  });

  it('changes nothing when the other flow refuses the contact; 422s name the field', async () => {
    const [here, archived] = [await flowOf(alice), await flowOf(alice)];
    const lead = await contactOf(alice);
    expect((await enrol(alice, here, lead)).statusCode).toBe(204);
    expect(
      (await ctx.request(alice, { method: 'PUT', url: `/flows/api/flows/${archived}/archive` })).statusCode,
    ).toBe(200);
    const bobsFlow = await flowOf(bob);

    const refused: Array<[object, string]> = [
      [{ to_flow_uuid: archived }, 'to_flow_uuid'],
      [{ to_flow_uuid: bobsFlow }, 'to_flow_uuid'],
      [{ to_flow_uuid: here }, 'to_flow_uuid'],
      [{ to_flow_uuid: await flowOf(alice), contact_source_id: 7 }, 'contact_source_id'],
      [{ to_flow_uuid: archived, sender: 'x' }, 'sender'],
      [{}, 'to_flow_uuid'],
    ];
    for (const [payload, field] of refused) {
      const res = await move(alice, here, lead, payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(422);
      expect(Object.keys(res.json().error.data)).toContain(field);
    }
    expect(await enrollmentsOf(lead)).toEqual([
      expect.objectContaining({ flow_uuid: here, status: 'in_progress', reason: null }),
    ]);
  });

  it('answers 404 for a contact never in the flow and for another team', async () => {
    const [here, there] = [await flowOf(alice), await flowOf(alice)];
    const lead = await contactOf(alice);
    expect((await move(alice, here, lead, { to_flow_uuid: there })).statusCode).toBe(404);
    expect((await enrol(alice, here, lead)).statusCode).toBe(204);
    const bobsFlow = await flowOf(bob);
    const bobsLead = await contactOf(bob);
    expect((await move(bob, here, lead, { to_flow_uuid: bobsFlow })).statusCode).toBe(404);
    expect((await move(bob, here, bobsLead, { to_flow_uuid: bobsFlow })).statusCode).toBe(404);
    expect(await enrollmentsOf(lead)).toEqual([expect.objectContaining({ status: 'in_progress' })]);
  });
});
