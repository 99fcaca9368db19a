import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';
import { emitCompanyEvents, emitContactEvents, emitEvents } from './emit.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let listUuid: string;
let janeUuid: string;
let joUuid: string;
let companyUuid: string;

async function events(teamId: number) {
  return ctx.db.selectFrom('events').selectAll().where('team_id', '=', teamId).orderBy('uuid').execute();
}

async function fanOutJobs(): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from graphile_worker.jobs where task_identifier = 'webhooks.fanOutEvents'
  `.execute(ctx.db);
  return result.rows[0]!.n;
}

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  const list = await makeList(ctx.db, alice.teamId, 'CMO Germany');
  listUuid = list.uuid;
  const tagUuid = newId();
  await ctx.db
    .insertInto('tags')
    .values({ team_id: alice.teamId, uuid: tagUuid, name: 'Hot Lead' })
    .execute();
  const fieldUuid = newId();
  await ctx.db
    .insertInto('custom_fields')
    .values({ team_id: alice.teamId, uuid: fieldUuid, name: 'Industry_Vertical', object: 'lead' })
    .execute();
  companyUuid = newId();
  await ctx.db
    .insertInto('companies')
    .values({
      team_id: alice.teamId,
      uuid: companyUuid,
      name: 'Acme Inc',
      domain: 'acme.example',
      linkedin: 'acme-inc',
      employees_range: '51-200',
      custom_fields: '{}',
    })
    .execute();
  const [jane, jo] = await makeLeads(ctx.db, alice.teamId, listUuid, [
    { first_name: 'Jane', last_name: 'Smith', linkedin: 'jane-smith', work_email: 'jane@acme.example' },
    { first_name: 'Jo', linkedin: 'jörg-müller' },
  ]);
  janeUuid = jane!.uuid;
  joUuid = jo!.uuid;
  await ctx.db
    .updateTable('leads')
    .set({
      tags: [tagUuid],
      custom_fields: JSON.stringify({ [fieldUuid]: 'SaaS' }),
      company_uuid: companyUuid,
    })
    .where('team_id', '=', alice.teamId)
    .where('uuid', '=', janeUuid)
    .execute();
});
afterAll(() => ctx.close());

describe('emitEvents', () => {
  it('records the event with the contact and its company as they are now', async () => {
    const [uuid] = await ctx.db.transaction().execute((trx) =>
      emitEvents(trx, alice.teamId, [
        {
          name: 'contact_replied_email',
          leadUuid: janeUuid,
          email: {
            uuid: newId(),
            subject: 'Re: hello',
            body: '<p>Sure</p>',
            type: 'inbox',
            status: 'sync',
            from_name: 'Jane Smith',
            from_email: 'jane@acme.example',
            to_name: null,
            to_email: null,
            sent_at: '2026-01-01T10:00:00.000Z',
          },
        },
      ]),
    );
    const row = await ctx.db
      .selectFrom('events')
      .selectAll()
      .where('uuid', '=', uuid!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ team_id: alice.teamId, name: 'contact_replied_email', lead_uuid: janeUuid });
    expect(row.payload).toMatchObject({
      contact: {
        uuid: janeUuid,
        name: 'Jane Smith',
        list_uuid: listUuid,
        list_name: 'CMO Germany',
        pipeline_stage_name: 'New',
        tags: ['Hot Lead'],
        custom_fields: { Industry_Vertical: 'SaaS' },
        linkedin_url: 'https://www.linkedin.com/in/jane-smith',
        work_email: 'jane@acme.example',
      },
      account: {
        uuid: companyUuid,
        name: 'Acme Inc',
        size: '51-200',
        linkedin_url: 'https://www.linkedin.com/company/acme-inc',
      },
      email: { subject: 'Re: hello' },
      sender_profile: null,
      automation: null,
      linkedin_message: null,
    });
    expect((row.payload.contact as { created_at: string }).created_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });

  it('encodes non-ASCII LinkedIn nicknames in the profile URL like the TypeScript helper', async () => {
    const [uuid] = await ctx.db
      .transaction()
      .execute((trx) => emitEvents(trx, alice.teamId, [{ name: 'contact_enriched', leadUuid: joUuid }]));
    const row = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('uuid', '=', uuid!)
      .executeTakeFirstOrThrow();
    expect((row.payload.contact as { linkedin_url: string }).linkedin_url).toBe(
      `https://www.linkedin.com/in/${encodeURIComponent('jörg-müller')}`,
    );
    expect(row.payload.account).toBeNull();
  });

  it('records nothing when the transaction rolls back, and refuses another team\u2019s contact', async () => {
    const before = (await events(alice.teamId)).length;
    await expect(
      ctx.db.transaction().execute(async (trx) => {
        await emitEvents(trx, alice.teamId, [{ name: 'contact_enriched', leadUuid: janeUuid }]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await events(alice.teamId)).toHaveLength(before);

    await expect(
      ctx.db
        .transaction()
        .execute((trx) => emitEvents(trx, bob.teamId, [{ name: 'contact_enriched', leadUuid: janeUuid }])),
    ).rejects.toThrow(/not records of team/);
    expect(await events(bob.teamId)).toHaveLength(0);
  });

  it('rejects events missing their subject and unknown event names', async () => {
    await expect(
      ctx.db.transaction().execute((trx) => emitEvents(trx, alice.teamId, [{ name: 'contact_exported' }])),
    ).rejects.toThrow(/needs a leadUuid/);
    await expect(
      ctx.db
        .transaction()
        .execute((trx) =>
          emitEvents(trx, alice.teamId, [{ name: 'contact_created' as never, leadUuid: janeUuid }]),
        ),
    ).rejects.toThrow(/Unknown event/);
  });

  it('queues a fan-out only when an active webhook listens to the event', async () => {
    const jobsBefore = await fanOutJobs();
    await ctx.db
      .transaction()
      .execute((trx) => emitEvents(trx, alice.teamId, [{ name: 'contact_enriched', leadUuid: janeUuid }]));
    expect(await fanOutJobs()).toBe(jobsBefore);
    const unbatched = await ctx.db
      .selectFrom('events')
      .select('fanout_batch')
      .where('team_id', '=', alice.teamId)
      .orderBy('uuid', 'desc')
      .executeTakeFirstOrThrow();
    expect(unbatched.fanout_batch).toBeNull();

    await ctx.db
      .insertInto('webhooks')
      .values({
        team_id: alice.teamId,
        uuid: newId(),
        name: 'Enriched',
        event: 'contact_enriched',
        target_url: 'https://hooks.example/enriched',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      })
      .execute();
    await ctx.db.transaction().execute((trx) =>
      emitEvents(trx, alice.teamId, [
        { name: 'contact_enriched', leadUuid: janeUuid },
        { name: 'contact_exported', leadUuid: janeUuid },
      ]),
    );
    expect(await fanOutJobs()).toBe(jobsBefore + 1);
    const latest = await ctx.db
      .selectFrom('events')
      .select(['name', 'fanout_batch'])
      .where('team_id', '=', alice.teamId)
      .orderBy('uuid', 'desc')
      .limit(2)
      .execute();
    const byName = Object.fromEntries(latest.map((row) => [row.name, row.fanout_batch]));
    expect(byName.contact_enriched).not.toBeNull();
    expect(byName.contact_exported).toBeNull();
  });
});

describe('set-based emits', () => {
  it('records one event per selected contact, from a list of uuids or a subquery', async () => {
    const foreign = await makeLeads(ctx.db, bob.teamId, (await makeList(ctx.db, bob.teamId)).uuid, [
      { first_name: 'Bo' },
    ]);
    const fromList = await ctx.db
      .transaction()
      .execute((trx) =>
        emitContactEvents(trx, alice.teamId, 'contact_exported', [janeUuid, joUuid, foreign[0]!.uuid]),
      );
    expect(fromList).toBe(2);
    const fromQuery = await ctx.db
      .transaction()
      .execute((trx) =>
        emitContactEvents(
          trx,
          alice.teamId,
          'contact_exported',
          sql`select uuid from leads where team_id = ${alice.teamId} and list_uuid = ${listUuid}`,
          { automation: { uuid: newId(), name: 'Flow', status: 'on', priority: 2 } },
        ),
      );
    expect(fromQuery).toBe(2);
    const exported = (await events(alice.teamId)).filter(
      (row) => row.name === 'contact_exported' && row.lead_uuid,
    );
    const last = exported.slice(-2);
    expect(last.map((row) => row.lead_uuid).sort()).toEqual([janeUuid, joUuid].sort());
    expect(last[0]!.payload).toMatchObject({ automation: { name: 'Flow' }, email: null });
    const jane = last.find((row) => row.lead_uuid === janeUuid)!;
    expect(jane.payload).toMatchObject({ contact: { tags: ['Hot Lead'] }, account: { name: 'Acme Inc' } });
    expect(await emitContactEvents(ctx.db, alice.teamId, 'contact_exported', [])).toBe(0);
  });

  it('records account_exported per company, without a contact', async () => {
    const count = await ctx.db
      .transaction()
      .execute((trx) => emitCompanyEvents(trx, alice.teamId, 'account_exported', [companyUuid]));
    expect(count).toBe(1);
    const row = (await events(alice.teamId)).filter((e) => e.name === 'account_exported').at(-1)!;
    expect(row.lead_uuid).toBeNull();
    expect(row.payload).toMatchObject({
      contact: null,
      account: { uuid: companyUuid, domain: 'acme.example' },
    });
    await expect(
      ctx.db
        .transaction()
        .execute((trx) => emitContactEvents(trx, alice.teamId, 'account_exported', [janeUuid])),
    ).rejects.toThrow(/not about a contact/);
  });
});
