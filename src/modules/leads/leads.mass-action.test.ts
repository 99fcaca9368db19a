import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import {
  createLeads,
  listOf,
  makeCustomField,
  makeLeadBlacklistEntry,
  makeTag,
  stagesOf,
  type WireLead,
} from './leads.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let list: { uuid: string };
let people: WireLead[];
let blocked: WireLead;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  await makeLeadBlacklistEntry(ctx, alice.teamId, { company_name: 'blocked co' });
});
afterAll(() => ctx.close());

beforeEach(async () => {
  list = await listOf(ctx, alice, 'Mass');
  people = await createLeads(
    ctx,
    alice,
    list.uuid,
    ['Amy', 'Bo', 'Cy'].map((first_name) => ({ first_name })),
  );
  const [blockedLead] = await createLeads(ctx, alice, list.uuid, [
    { first_name: `Blocked ${list.uuid}`, company_name: 'Blocked Co' },
  ]);
  blocked = blockedLead!;
  expect(blocked.is_blacklisted).toBe(true);
});

const act = (user: TestUser, payload: Record<string, unknown>) =>
  ctx.request(user, { method: 'PUT', url: '/leads/api/leads/mass-action', payload });

async function get(uuid: string) {
  return (await ctx.request(alice, { method: 'GET', url: `/leads/api/leads/${uuid}` })).json() as WireLead;
}

describe('PUT /leads/api/leads/mass-action', () => {
  it('adds, removes and replaces tags, skipping blacklisted contacts and counting real changes', async () => {
    const a = await makeTag(ctx, alice.teamId, `a-${list.uuid}`);
    const b = await makeTag(ctx, alice.teamId, `b-${list.uuid}`);
    const added = await act(alice, {
      type: 'contact_add_tags',
      payload: { tag_uuid: a.uuid },
      filter: { list_uuid: list.uuid },
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toEqual({ affected: 3, operation: null });
    expect((await get(blocked.uuid)).tags).toEqual([]);
    const again = await act(alice, {
      type: 'contact_add_tags',
      payload: { tag_uuids: [a.uuid, b.uuid] },
      filter: { ids: [people[0]!.uuid] },
    });
    expect(again.json().affected).toBe(1);
    expect((await get(people[0]!.uuid)).tags.sort()).toEqual([a.uuid, b.uuid].sort());
    const noop = await act(alice, {
      type: 'contact_add_tags',
      payload: { tag_uuid: a.uuid },
      filter: { list_uuid: list.uuid },
    });
    expect(noop.json().affected).toBe(0);

    const removed = await act(alice, {
      type: 'contact_remove_tags',
      payload: { tag_uuid: a.uuid },
      filter: { all: true, excludeIds: [people[1]!.uuid] },
    });
    expect(removed.json().affected).toBe(2);
    expect((await get(people[0]!.uuid)).tags).toEqual([b.uuid]);
    expect((await get(people[1]!.uuid)).tags).toEqual([a.uuid]);

    const replaced = await act(alice, {
      type: 'contact_replace_tags',
      payload: { tag_uuids: [b.uuid] },
      filter: { tags: [a.uuid, b.uuid] },
    });
    expect(replaced.json().affected).toBe(1);
    expect((await get(people[1]!.uuid)).tags).toEqual([b.uuid]);
  });

  it('changes list, pipeline stage and a custom field; null clears the field', async () => {
    const target = await listOf(ctx, alice, 'Target');
    const moved = await act(alice, {
      type: 'contact_change_list',
      payload: { list_uuid: target.uuid },
      filter: { list_uuid: list.uuid },
    });
    expect(moved.json().affected).toBe(3);
    expect((await get(blocked.uuid)).list_uuid).toBe(list.uuid);
    const [, stage] = await stagesOf(ctx, alice.teamId);
    const staged = await act(alice, {
      type: 'contact_change_pipeline_stage',
      payload: { pipeline_stage_uuid: stage!.uuid },
      filter: { all: false, ids: people.map((p) => p.uuid), excludeIds: [] },
    });
    expect(staged.json().affected).toBe(3);
    expect((await get(people[2]!.uuid)).pipeline_stage_uuid).toBe(stage!.uuid);

    const field = await makeCustomField(ctx, alice.teamId, `seats_${Date.now()}`, 'number');
    const set = await act(alice, {
      type: 'contact_change_custom_field',
      payload: { custom_field_uuid: field.uuid, value: '12' },
      filter: { ids: [people[0]!.uuid, people[1]!.uuid] },
    });
    expect(set.json().affected).toBe(2);
    expect((await get(people[0]!.uuid)).custom_fields).toEqual({ [field.name]: 12 });
    const cleared = await act(alice, {
      type: 'contact_change_custom_field',
      payload: { custom_field_uuid: field.uuid, value: null },
      filter: { ids: [people[0]!.uuid] },
    });
    expect(cleared.json().affected).toBe(1);
    expect((await get(people[0]!.uuid)).custom_fields).toEqual({});
    const badValue = await act(alice, {
      type: 'contact_change_custom_field',
      payload: { custom_field_uuid: field.uuid, value: 'lots' },
      filter: { all: true },
    });
    expect(badValue.statusCode).toBe(422);
    expect(badValue.json().error.data).toHaveProperty(['payload.value']);
  });

  it('deletes the selected contacts but not blacklisted ones', async () => {
    const res = await act(alice, { type: 'contact_delete', filter: { list_uuid: list.uuid } });
    expect(res.json().affected).toBe(3);
    const gone = await ctx.request(alice, { method: 'GET', url: `/leads/api/leads/${people[0]!.uuid}` });
    expect(gone.statusCode).toBe(404);
    expect((await get(blocked.uuid)).uuid).toBe(blocked.uuid);
  });

  it('answers 422 for unknown types, bad payloads and selections', async () => {
    const noFlow = await act(alice, { type: 'contact_add_to_flow', payload: {}, filter: { all: true } });
    expect(noFlow.json().error.data).toHaveProperty(['payload.flow_uuid']);
    const unknown = await act(alice, { type: 'contact_teleport', filter: { all: true } });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toContain('contact_add_tags');
    const noTag = await act(alice, { type: 'contact_add_tags', payload: {}, filter: { all: true } });
    expect(noTag.json().error.data).toHaveProperty(['payload']);
    expect(noTag.json().message).toContain('tag_uuid');
    const bobTag = await makeTag(ctx, bob.teamId, 'Bob only');
    const foreignTag = await act(alice, {
      type: 'contact_add_tags',
      payload: { tag_uuid: bobTag.uuid },
      filter: { all: true },
    });
    expect(foreignTag.statusCode).toBe(422);
    const bobList = await listOf(ctx, bob);
    const foreignList = await act(alice, {
      type: 'contact_change_list',
      payload: { list_uuid: bobList.uuid },
      filter: { all: true },
    });
    expect(foreignList.json().error.data).toHaveProperty(['payload.list_uuid']);
    const noSelection = await act(alice, { type: 'contact_delete', filter: {} });
    expect(noSelection.statusCode).toBe(422);
    const noFilter = await act(alice, { type: 'contact_delete' });
    expect(noFilter.statusCode).toBe(422);
    expect(noFilter.json().error.data).toHaveProperty('filter');
    const badFilter = await act(alice, { type: 'contact_delete', filter: { colour: 'red' } });
    expect(badFilter.json().error.data).toHaveProperty(['filter.colour']);
    const badPayload = await act(alice, { type: 'contact_delete', payload: [], filter: { all: true } });
    expect(badPayload.statusCode).toBe(422);
  });

  it('keeps teams apart: another team\u2019s ids and all: true never touch these contacts', async () => {
    const bobTag = await makeTag(ctx, bob.teamId, `bob-${list.uuid}`);
    const byIds = await act(bob, {
      type: 'contact_add_tags',
      payload: { tag_uuid: bobTag.uuid },
      filter: { ids: people.map((p) => p.uuid) },
    });
    expect(byIds.json().affected).toBe(0);
    const deleted = await act(bob, { type: 'contact_delete', filter: { all: true } });
    expect(deleted.statusCode).toBe(200);
    expect((await get(people[0]!.uuid)).tags).toEqual([]);
  });
});
