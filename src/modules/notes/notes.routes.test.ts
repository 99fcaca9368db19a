import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { deleteLeadsWhere } from '../leads/lead-deletion.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let leadUuid: string;
let companyUuid: string;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  const list = await makeList(ctx.db, alice.teamId);
  const leads = await makeLeads(ctx.db, alice.teamId, list.uuid, [
    { first_name: 'Ann' },
    { first_name: 'Ben' },
  ]);
  leadUuid = leads[0]!.uuid;
  const company = await ctx.db
    .insertInto('companies')
    .values({ team_id: alice.teamId, uuid: newId(), name: 'Acme', custom_fields: '{}' })
    .returning('uuid')
    .executeTakeFirstOrThrow();
  companyUuid = company.uuid;
});
afterAll(() => ctx.close());

type Note = {
  uuid: string;
  note: string;
  object: string;
  object_uuid: string;
  user_id: number;
  team_id: number;
};

async function createNote(user: TestUser, payload: Record<string, unknown>) {
  const res = await ctx.request(user, { method: 'POST', url: '/leads/api/notes', payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Note;
}

describe('notes CRUD', () => {
  it('adds a note to a contact, reads, edits and deletes it', async () => {
    const note = await createNote(alice, { object: 'lead', object_uuid: leadUuid, note: 'Met at the fair' });
    expect(note).toMatchObject({
      object: 'lead',
      object_uuid: leadUuid,
      note: 'Met at the fair',
      user_id: alice.userId,
      team_id: alice.teamId,
    });
    const got = await ctx.request(alice, { method: 'GET', url: `/leads/api/notes/${note.uuid}` });
    expect(got.json()).toMatchObject({ uuid: note.uuid, note: 'Met at the fair' });
    const edited = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/notes/${note.uuid}`,
      payload: { note: 'Met at the fair, wants a demo' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().note).toBe('Met at the fair, wants a demo');
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/leads/api/notes/${note.uuid}` })).statusCode,
    ).toBe(204);
    expect(
      (await ctx.request(alice, { method: 'GET', url: `/leads/api/notes/${note.uuid}` })).statusCode,
    ).toBe(404);
  });

  it('adds a note to a company', async () => {
    const note = await createNote(alice, {
      object: 'company',
      object_uuid: companyUuid,
      note: 'Key account',
    });
    expect(note).toMatchObject({ object: 'company', object_uuid: companyUuid });
  });

  it('answers 404 for a record that does not exist or belongs to another team, 422 for bad input', async () => {
    const unknown = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/notes',
      payload: { object: 'lead', object_uuid: newId(), note: 'x' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Contact not found');
    const foreign = await ctx.request(bob, {
      method: 'POST',
      url: '/leads/api/notes',
      payload: { object: 'company', object_uuid: companyUuid, note: 'x' },
    });
    expect(foreign.statusCode).toBe(404);
    // A contact uuid is not a company.
    const wrongObject = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/notes',
      payload: { object: 'company', object_uuid: leadUuid, note: 'x' },
    });
    expect(wrongObject.statusCode).toBe(404);
    const badObject = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/notes',
      payload: { object: 'deal', object_uuid: leadUuid, note: 'x' },
    });
    expect(badObject.statusCode).toBe(422);
    expect(badObject.json().error.data).toHaveProperty('object');
    const blank = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/notes',
      payload: { object: 'lead', object_uuid: leadUuid, note: '  ' },
    });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().error.data).toHaveProperty('note');
    const missing = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/notes',
      payload: { object: 'lead', object_uuid: leadUuid },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().error.data).toHaveProperty('note');
  });

  it('keeps teams apart: another team\u2019s note is 404 for every operation and never listed', async () => {
    const note = await createNote(alice, { object: 'lead', object_uuid: leadUuid, note: 'private' });
    const url = `/leads/api/notes/${note.uuid}`;
    expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'PUT', url, payload: { note: 'x' } })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'DELETE', url })).statusCode).toBe(404);
    const listed = await ctx.request(bob, {
      method: 'GET',
      url: `/leads/api/notes?filter[lead_uuid]=${leadUuid}`,
    });
    expect(listed.json()).toMatchObject({ total: 0, data: [] });
    expect((await ctx.request(alice, { method: 'GET', url })).json().note).toBe('private');
  });
});

describe('listing notes', () => {
  let dave: TestUser;
  let ann: string;
  let ben: string;
  let acme: string;
  beforeAll(async () => {
    dave = await ctx.createUser();
    const list = await makeList(ctx.db, dave.teamId);
    const leads = await makeLeads(ctx.db, dave.teamId, list.uuid, [
      { first_name: 'Ann' },
      { first_name: 'Ben' },
    ]);
    ann = leads[0]!.uuid;
    ben = leads[1]!.uuid;
    const company = await ctx.db
      .insertInto('companies')
      .values({ team_id: dave.teamId, uuid: newId(), name: 'Acme', custom_fields: '{}' })
      .returning('uuid')
      .executeTakeFirstOrThrow();
    acme = company.uuid;
    for (const [object, uuid, text] of [
      ['lead', ann, 'ann 1'],
      ['lead', ann, 'ann 2'],
      ['lead', ben, 'ben 1'],
      ['company', acme, 'acme 1'],
    ] as const) {
      await createNote(dave, { object, object_uuid: uuid, note: text });
    }
  });

  it('filters by lead_uuid, company_uuid, object and object_uuid', async () => {
    const get = async (query: string) =>
      (await ctx.request(dave, { method: 'GET', url: `/leads/api/notes${query}` })).json() as {
        data: Note[];
        total: number;
      };
    expect((await get(`?filter[lead_uuid]=${ann}&order_type=asc`)).data.map((n) => n.note)).toEqual([
      'ann 1',
      'ann 2',
    ]);
    expect((await get(`?lead_uuid=${ben}`)).data.map((n) => n.note)).toEqual(['ben 1']);
    expect((await get(`?filter[company_uuid]=${acme}`)).data.map((n) => n.note)).toEqual(['acme 1']);
    // lead_uuid only matches notes on contacts, even for a company uuid.
    expect((await get(`?filter[lead_uuid]=${acme}`)).total).toBe(0);
    expect((await get('?filter[object]=lead')).total).toBe(3);
    expect((await get(`?filter[object_uuid][]=${ann}&filter[object_uuid][]=${acme}`)).total).toBe(3);
    expect((await get('?filter[created_at][<]=2000-01-01')).total).toBe(0);
    const page = await get('?limit=2&order_field=updated_at');
    expect(page).toMatchObject({ total: 4 });
    expect(page.data).toHaveLength(2);
  });

  it('rejects a malformed uuid filter with 422', async () => {
    const res = await ctx.request(dave, { method: 'GET', url: '/leads/api/notes?filter[lead_uuid]=nope' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('lead_uuid');
  });
});

describe('deleting contacts', () => {
  it('removes their notes through the contact purge job, leaving other notes', async () => {
    const erin = await ctx.createUser();
    const list = await makeList(ctx.db, erin.teamId);
    const [gone, kept] = await makeLeads(ctx.db, erin.teamId, list.uuid, [
      { first_name: 'Gone' },
      { first_name: 'Kept' },
    ]);
    await createNote(erin, { object: 'lead', object_uuid: gone!.uuid, note: 'goes' });
    const keptNote = await createNote(erin, { object: 'lead', object_uuid: kept!.uuid, note: 'stays' });
    await ctx.db
      .transaction()
      .execute((trx) => deleteLeadsWhere(trx, erin.teamId, sql`l.uuid = ${gone!.uuid}`));
    await ctx.startWorkers();
    await waitFor(async () => {
      const left = await ctx.db
        .selectFrom('lead_tombstones')
        .select('uuid')
        .where('team_id', '=', erin.teamId)
        .execute();
      return left.length === 0;
    });
    const notes = await ctx.request(erin, { method: 'GET', url: '/leads/api/notes' });
    expect(notes.json().data.map((n: Note) => n.uuid)).toEqual([keptNote.uuid]);
  });
});
