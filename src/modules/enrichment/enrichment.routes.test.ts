// Enrichment through the real HTTP stack, job queue and sandbox network: queueing and its refusals,
// credits (never negative under concurrent requests, exact after a run), team isolation, and a sandbox
// enrichment that fills a contact and a company.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSender } from '../../../test/automation-factories.js';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser, waitFor } from '../../../test/harness.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({ env: { LEADFLOW_SANDBOX_PROFILE_MISSING_RATE: '0' } });
  alice = await ctx.createUser('Alice team');
  bob = await ctx.createUser('Bob team');
});
afterAll(async () => ctx?.close());

const LEADS = '/leads/api/leads/advanced-enrichment';
const COMPANIES = '/leads/api/companies/advanced-enrichment';
const QUEUE = '/leads/api/enrichment-queue';

async function balance(teamId: number) {
  const row = await ctx.db
    .selectFrom('teams')
    .select('credits_advanced_enrichment')
    .where('id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(row.credits_advanced_enrichment);
}

async function ledger(teamId: number) {
  return ctx.db
    .selectFrom('credit_ledger')
    .select(['delta', 'reason', 'reference', 'balance_after'])
    .where('team_id', '=', teamId)
    .orderBy('id')
    .execute();
}

async function contacts(user: TestUser, count: number, prefix: string, extra: Record<string, string> = {}) {
  const list = await makeList(ctx.db, user.teamId, `${prefix} list`);
  return makeLeads(
    ctx.db,
    user.teamId,
    list.uuid,
    Array.from({ length: count }, (_, i) => ({
      first_name: `${prefix}${i}`,
      linkedin: `${prefix}-${i}`,
      ...extra,
    })),
  );
}

async function readingSender(user: TestUser) {
  const sender = await makeSender(ctx.db, user.teamId);
  const seat = await ctx.request(user, {
    method: 'POST',
    url: '/browsers/api/linkedin-browsers',
    payload: { sender_profile_uuid: sender.uuid, driver: 'sandbox' },
  });
  expect(seat.statusCode, seat.body).toBe(201);
  return sender;
}

async function queueOf(teamId: number) {
  return ctx.db.selectFrom('enrichment_queue').selectAll().where('team_id', '=', teamId).execute();
}

describe('queueing', () => {
  it('refuses with 402 naming what is needed and available, and queues nothing', async () => {
    const leads = await contacts(alice, 3, 'short');
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: LEADS,
      payload: { uuids: leads.map((l) => l.uuid) },
    });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json().error).toMatchObject({ reason: 'payment_required', data: { needed: 3, available: 0 } });
    expect(res.json().error.message).toContain('needs 3 credits; the team has 0');
    expect(await queueOf(alice.teamId)).toHaveLength(0);
  });

  it('refuses a body without uuids or filter, unknown keys and an empty filter', async () => {
    const none = await ctx.request(alice, { method: 'PUT', url: LEADS, payload: {} });
    expect(none.statusCode).toBe(422);
    expect(none.json().error.data).toHaveProperty('uuids');
    const unknown = await ctx.request(alice, {
      method: 'PUT',
      url: COMPANIES,
      payload: { uuids: [], colour: 1 },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toContain('colour');
    const empty = await ctx.request(alice, { method: 'PUT', url: LEADS, payload: { filter: {} } });
    expect(empty.statusCode).toBe(422);
    const badUuid = await ctx.request(alice, { method: 'PUT', url: LEADS, payload: { uuids: ['nope'] } });
    expect(badUuid.statusCode).toBe(422);
  });

  it('queues by uuids and by filter, reserving a credit each; skips blacklisted, unreadable and queued ones', async () => {
    await ctx.services.identity.addCredits(alice.teamId, 10);
    const list = await makeList(ctx.db, alice.teamId, 'q list');
    const leads = await makeLeads(ctx.db, alice.teamId, list.uuid, [
      { first_name: 'Ann', linkedin: 'ann-q' },
      { first_name: 'Ben', linkedin: 'ben-q' },
      { first_name: 'Cid' }, // nothing to read a profile by
      { first_name: 'Dee', linkedin: 'dee-q' },
    ]);
    const black = await ctx.request(alice, {
      method: 'POST',
      url: '/leads/api/leads-blacklist',
      payload: { linkedin: 'dee-q' },
    });
    expect(black.statusCode, black.body).toBe(201);
    const first = await ctx.request(alice, {
      method: 'PUT',
      url: LEADS,
      payload: { uuids: [leads[0]!.uuid] },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ count: 1, skipped: 0, credits_remaining: 9 });
    const byFilter = await ctx.request(alice, {
      method: 'PUT',
      url: LEADS,
      payload: { filter: { list_uuid: list.uuid } },
    });
    expect(byFilter.statusCode, byFilter.body).toBe(200);
    // Ann is queued already, Cid has no LinkedIn reference, Dee is blacklisted (not even selected).
    expect(byFilter.json()).toEqual({ count: 1, skipped: 2, credits_remaining: 8 });
    expect(await balance(alice.teamId)).toBe(8);
    expect((await ledger(alice.teamId)).map((r) => [r.reason, r.delta, r.balance_after])).toEqual([
      ['grant', 10, 10],
      ['enrichment_reserve', -1, 9],
      ['enrichment_reserve', -1, 8],
    ]);
    const page = await ctx.request(alice, { method: 'GET', url: `${QUEUE}?filter[object]=lead&limit=10` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().total).toBe(2);
    expect(Object.keys(page.json().data[0]).sort()).toEqual(
      ['created_at', 'error', 'finished_at', 'object', 'object_uuid', 'status', 'uuid'].sort(),
    );
    expect(
      page
        .json()
        .data.map((e: { object_uuid: string }) => e.object_uuid)
        .sort(),
    ).toEqual([leads[0]!.uuid, leads[1]!.uuid].sort());
    const metrics = await ctx.request(alice, { method: 'POST', url: `${QUEUE}/metrics`, payload: {} });
    expect(metrics.json()).toEqual({ this_month_count: 2 });
    const viaGet = await ctx.request(alice, { method: 'GET', url: `${QUEUE}/metrics` });
    expect(viaGet.json()).toEqual({ this_month_count: 2 });
    const badFilter = await ctx.request(alice, { method: 'GET', url: `${QUEUE}?filter[status]=odd` });
    expect(badFilter.statusCode).toBe(422);
  });

  it('queues companies by filter, 402 when short; metrics answer without a body', async () => {
    const erin = await ctx.createUser('Erin team');
    const created = await ctx.request(erin, {
      method: 'POST',
      url: '/leads/api/companies',
      payload: {
        companies: [
          { name: 'Filter One', industry: 'Robotics' },
          { name: 'Filter Two', industry: 'Robotics' },
          { name: 'Other', industry: 'Food' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const short = await ctx.request(erin, {
      method: 'PUT',
      url: COMPANIES,
      payload: { filter: { industry: 'Robotics' } },
    });
    expect(short.statusCode).toBe(402);
    expect(short.json().error.data).toEqual({ needed: 2, available: 0 });
    await ctx.services.identity.addCredits(erin.teamId, 2);
    const ok = await ctx.request(erin, {
      method: 'PUT',
      url: COMPANIES,
      payload: { filter: { industry: 'Robotics' } },
    });
    expect(ok.json()).toEqual({ count: 2, skipped: 0, credits_remaining: 0 });
    // POST /leads/api/companies/enrich (the MCP server's path) is the same operation.
    const uuids = created.json().map((c: { uuid: string }) => c.uuid);
    await ctx.services.identity.addCredits(erin.teamId, 1);
    const byPost = await ctx.request(erin, {
      method: 'POST',
      url: '/leads/api/companies/enrich',
      payload: { uuids, refresh: true },
    });
    expect(byPost.statusCode, byPost.body).toBe(200);
    expect(byPost.json()).toMatchObject({ count: 1, skipped: 2 }); // the two above are queued already
    const badKey = await ctx.request(erin, {
      method: 'PUT',
      url: COMPANIES,
      payload: { filter: { colour: 'red' } },
    });
    expect(badKey.statusCode).toBe(422);
    const noBody = await ctx.request(erin, { method: 'POST', url: `${QUEUE}/metrics` });
    expect(noBody.statusCode, noBody.body).toBe(200);
    expect(noBody.json()).toEqual({ this_month_count: 3 });
    const extra = await ctx.request(erin, {
      method: 'POST',
      url: `${QUEUE}/metrics`,
      payload: { period: 'x' },
    });
    expect(extra.statusCode).toBe(422);
    const companiesOnly = await ctx.request(erin, {
      method: 'GET',
      url: `${QUEUE}?filter[object]=company&filter[status]=pending`,
    });
    expect(companiesOnly.json().total).toBe(3);
  });

  it('refuses to take credits below 0 by hand (admin add-credits)', async () => {
    const frank = await ctx.createUser('Frank team');
    await ctx.services.identity.addCredits(frank.teamId, 3);
    await expect(ctx.services.identity.addCredits(frank.teamId, -4)).rejects.toMatchObject({ status: 422 });
    expect((await ctx.services.identity.addCredits(frank.teamId, -3)).credits.advanced_enrichment).toBe(0);
    expect((await ledger(frank.teamId)).map((r) => Number(r.delta))).toEqual([3, -3]);
  });

  it("keeps teams apart: another team's uuids queue nothing and its queue is not listed", async () => {
    await ctx.services.identity.addCredits(bob.teamId, 5);
    const aliceLeads = await contacts(alice, 2, 'iso');
    const res = await ctx.request(bob, {
      method: 'PUT',
      url: LEADS,
      payload: { uuids: aliceLeads.map((l) => l.uuid) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ count: 0, credits_remaining: 5 });
    const list = await ctx.request(bob, { method: 'GET', url: QUEUE });
    expect(list.json().total).toBe(0);
    expect((await ctx.request(bob, { method: 'POST', url: `${QUEUE}/metrics`, payload: {} })).json()).toEqual(
      {
        this_month_count: 0,
      },
    );
  });

  it('never takes credits below 0 under concurrent requests', async () => {
    const carol = await ctx.createUser('Carol team');
    await ctx.services.identity.addCredits(carol.teamId, 25);
    const leads = await contacts(carol, 60, 'race');
    // 12 requests of 5 distinct contacts each, at once, over real HTTP: 25 credits cover 5 of them.
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${address}${LEADS}`, {
          method: 'PUT',
          headers: { ...carol.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ uuids: leads.slice(i * 5, i * 5 + 5).map((l) => l.uuid) }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> })),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 402);
    expect(ok.length + refused.length).toBe(12);
    expect(ok).toHaveLength(5);
    expect(await balance(carol.teamId)).toBe(0);
    expect((await queueOf(carol.teamId)).length).toBe(25);
    const rows = await ledger(carol.teamId);
    expect(rows.reduce((sum, r) => sum + Number(r.delta), 0)).toBe(0);
    expect(rows.every((r) => Number(r.balance_after) >= 0)).toBe(true);
    for (const answer of refused) {
      expect((answer.body.error as { data: { needed: number; available: number } }).data.needed).toBe(5);
    }
  });
});

describe('sandbox enrichment', () => {
  it('fills a contact and a company, debits on success, refunds on failure, records contact_enriched', async () => {
    const dave = await ctx.createUser('Dave team');
    await ctx.services.identity.addCredits(dave.teamId, 10);
    const list = await makeList(ctx.db, dave.teamId, 'Enrich list');
    const [kept, gone] = await makeLeads(ctx.db, dave.teamId, list.uuid, [
      { first_name: 'Keep', linkedin: 'jane-keeper-1' },
      { first_name: 'Gone', linkedin: 'missing-person' },
    ]);
    const company = await ctx.request(dave, {
      method: 'POST',
      url: '/leads/api/companies',
      payload: { companies: [{ name: 'Acme Enrich', linkedin: 'acme-enrich' }] },
    });
    expect(company.statusCode, company.body).toBe(200);
    const companyUuid = company.json()[0].uuid as string;
    // Queued before any sender can read: the entries wait.
    await ctx.startWorkers();
    const queued = await ctx.request(dave, {
      method: 'PUT',
      url: LEADS,
      payload: { uuids: [kept!.uuid, gone!.uuid] },
    });
    expect(queued.json()).toMatchObject({ count: 2, credits_remaining: 8 });
    const queuedCompany = await ctx.request(dave, {
      method: 'PUT',
      url: COMPANIES,
      payload: { uuids: [companyUuid] },
    });
    expect(queuedCompany.statusCode, queuedCompany.body).toBe(200);
    expect(queuedCompany.json()).toMatchObject({ count: 1, credits_remaining: 7 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await queueOf(dave.teamId)).every((e) => e.status === 'pending')).toBe(true);

    const sender = await readingSender(dave);
    // The sweep (every minute) or a new request wakes the worker; a new request is quicker here.
    await ctx.request(dave, { method: 'PUT', url: LEADS, payload: { uuids: [kept!.uuid] } });
    const entries = await waitFor(async () => {
      const rows = await queueOf(dave.teamId);
      return rows.every((e) => e.status === 'done' || e.status === 'failed') ? rows : undefined;
    }, 30_000);
    const byObject = new Map((entries ?? []).map((e) => [e.object_uuid, e]));
    expect(byObject.get(kept!.uuid)).toMatchObject({
      status: 'done',
      error: null,
      sender_profile_uuid: sender.uuid,
    });
    expect(byObject.get(gone!.uuid)).toMatchObject({ status: 'failed' });
    expect(byObject.get(gone!.uuid)!.error).toContain('not_found');
    expect(byObject.get(companyUuid)).toMatchObject({ status: 'done' });

    const lead = await ctx.request(dave, { method: 'GET', url: `/leads/api/leads/${kept!.uuid}` });
    const filled = lead.json();
    expect(filled.first_name).toBe('Keep'); // user data is never overwritten
    expect(filled.linkedin_status).toBe('ok');
    expect(filled.headline).toBeTruthy();
    expect(filled.position).toBeTruthy();
    expect(filled.company_name).toBeTruthy();
    const failed = await ctx.request(dave, { method: 'GET', url: `/leads/api/leads/${gone!.uuid}` });
    expect(failed.json().linkedin_status).toBe('no_data');
    const acme = (
      await ctx.request(dave, { method: 'GET', url: `/leads/api/companies/${companyUuid}` })
    ).json();
    expect(acme.name).toBe('Acme Enrich');
    expect(acme.industry).toBeTruthy();
    expect(acme.linkedin_status).toBe('ok');
    expect(acme.last_enrich_at).toBeTruthy();

    // Credits exact: 10 granted, 3 reserved, 1 refunded for the profile that was not found.
    expect(await balance(dave.teamId)).toBe(8);
    const rows = await ledger(dave.teamId);
    expect(rows.filter((r) => r.reason === 'enrichment_refund')).toEqual([
      { delta: 1, reason: 'enrichment_refund', reference: byObject.get(gone!.uuid)!.uuid, balance_after: 8 },
    ]);
    expect(rows.reduce((sum, r) => sum + Number(r.delta), 0)).toBe(8);
    const events = await ctx.db
      .selectFrom('events')
      .select(['name', 'payload'])
      .where('team_id', '=', dave.teamId)
      .where('name', '=', 'contact_enriched')
      .execute();
    expect(events).toHaveLength(1);
    expect((events[0]!.payload as { contact: { uuid: string } }).contact.uuid).toBe(kept!.uuid);

    // refresh: true overwrites what LinkedIn shows.
    const again = await ctx.request(dave, {
      method: 'PUT',
      url: LEADS,
      payload: { uuids: [kept!.uuid], refresh: true },
    });
    expect(again.json()).toMatchObject({ count: 1 });
    await waitFor(async () => {
      const rows2 = await queueOf(dave.teamId);
      return rows2.every((e) => e.status === 'done' || e.status === 'failed');
    }, 30_000);
    const refreshed = (
      await ctx.request(dave, { method: 'GET', url: `/leads/api/leads/${kept!.uuid}` })
    ).json();
    expect(refreshed.first_name).not.toBe('Keep');
    expect(await balance(dave.teamId)).toBe(7);
  }, 60_000);
});
