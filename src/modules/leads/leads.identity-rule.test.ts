// One rule for every way a contact is written: it needs a name or an identifier. Create and import store
// a contact known only by its name (nothing can deduplicate it); upsert refuses it, because matching is
// what upsert is for; nothing anywhere stores a contact with neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { finishedImport, startImport, uploadOk } from '../files/files.test-support.js';
import { createLeads, listOf, makeCustomField, upsert } from './leads.fixtures.js';

let ctx: TestContext;
let alice: TestUser;
let list: { uuid: string };

const NEEDS =
  'a contact needs a name or an identifier: first_name, last_name or name, a LinkedIn reference ' +
  '(linkedin_id, linkedin, ln_member_id, ln_id, sn_id) or an e-mail (email, work_email, personal_email)';

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  list = await listOf(ctx, alice, 'Rule');
  await ctx.startWorkers();
});
afterAll(() => ctx.close());

async function count(): Promise<number> {
  const res = await ctx.request(alice, {
    method: 'POST',
    url: '/leads/api/leads/count',
    payload: { all: true },
  });
  return res.json().total;
}

describe('a contact with no name and no identifier', () => {
  it.each([
    [{}],
    [{ company_name: 'Acme', position: 'CEO' }],
    [{ first_name: '  ', email: '', tags: ['x'] }],
  ])('is refused by create: %j', async (lead) => {
    const before = await count();
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads',
      payload: { list_uuid: list.uuid, leads: [{ first_name: 'Fine' }, lead] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(`leads.1: ${NEEDS}.`);
    expect(res.json().error.data).toHaveProperty(['leads.1']);
    // Nothing of the request was stored.
    expect(await count()).toBe(before);
  });

  it('is refused by upsert with the same message', async () => {
    const res = await upsert(ctx, alice, { list_uuid: list.uuid, lead: { company_name: 'Acme' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(`lead: ${NEEDS}.`);
  });

  it('cannot be made by an update that clears every name and identifier', async () => {
    const [jane] = await createLeads(ctx, alice, list.uuid, [{ first_name: 'Jane', company_name: 'Acme' }]);
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/leads/${jane!.uuid}`,
      payload: { first_name: null, name: null },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('would leave the contact without a name or an identifier');
    // Clearing the name while an e-mail stays is fine.
    const ok = await ctx.request(alice, {
      method: 'PUT',
      url: `/leads/api/leads/${jane!.uuid}`,
      payload: { email: 'jane@acme.io', first_name: null, name: null },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('a contact known only by its name', () => {
  it('is created by POST /leads/api/leads, each time (nothing can deduplicate it)', async () => {
    const first = await createLeads(ctx, alice, list.uuid, [{ first_name: 'Nomen', last_name: 'Nescio' }]);
    const again = await createLeads(ctx, alice, list.uuid, [{ first_name: 'Nomen', last_name: 'Nescio' }]);
    expect(first[0]).toMatchObject({ create_status: 'created', name: 'Nomen Nescio' });
    expect(again[0]).toMatchObject({ create_status: 'created' });
    expect(again[0]!.uuid).not.toBe(first[0]!.uuid);
  });

  it('is refused by upsert, which needs a key to match on', async () => {
    const res = await upsert(ctx, alice, { list_uuid: list.uuid, lead: { first_name: 'Nomen' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('A contact known only by its name cannot be deduplicated');
  });

  it('is imported from a mapping of first_name / last_name, custom fields and tags, and the record says so', async () => {
    await makeCustomField(ctx, alice.teamId, 'shoe_size', 'number');
    const csv = 'First,Last,Shoe,Tag\nAda,Lovelace,38,math\nAlan,Turing,44,math\n,,41,math\n';
    const uploaded = await uploadOk(ctx, alice, csv, 'names.csv');
    const started = await startImport(ctx, alice, uploaded.uuid, {
      list_uuid: list.uuid,
      columns: [
        { source: 'First', target: 'first_name' },
        { source: 'Last', target: 'last_name' },
        { source: 'Shoe', target: 'custom_fields.shoe_size' },
        { source: 'Tag', target: 'tags' },
      ],
    });
    expect(started.statusCode, started.body).toBe(200);
    const warning =
      'No mapped column can deduplicate contacts (a LinkedIn reference, an e-mail, or a name together with ' +
      'company_name): every row creates a new contact, and importing the file again creates them again.';
    // Said as soon as the import is accepted, and kept on the record.
    expect(started.json().warnings).toEqual([warning]);
    const done = await finishedImport(ctx, alice, uploaded.uuid);
    expect(done).toMatchObject({
      status: 'done',
      total_rows: 3,
      created_count: 2,
      undeduplicated_count: 2,
      error_count: 1,
      warnings: [warning],
    });
    expect(done.errors).toEqual([{ row: 4, reason: `the row has no name and no identifier (${NEEDS}).` }]);
    const found = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads/search',
      payload: { filter: { q: 'Lovelace' } },
    });
    const [ada] = found.json().data;
    expect(ada).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace' });
    expect(ada.custom_fields).toEqual({ shoe_size: 38 });
    expect(ada.tags).toHaveLength(1);
  });

  it('refuses a mapping with no name and no identifier', async () => {
    const uploaded = await uploadOk(ctx, alice, 'Company,Tag\nAcme,x\n', 'companies-only.csv');
    const res = await startImport(ctx, alice, uploaded.uuid, {
      list_uuid: list.uuid,
      columns: [
        { source: 'Company', target: 'company_name' },
        { source: 'Tag', target: 'tags' },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('Map at least one column that names or identifies a contact');
  });
});
