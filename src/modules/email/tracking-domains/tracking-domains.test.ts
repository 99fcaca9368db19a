// Custom tracking domains: CRUD, team scope, and CNAME verification through DNS - a real UDP DNS server
// on loopback (dns2) that Leadflow's resolver asks (LEADFLOW_DNS_SERVERS) - and the mailbox reference.
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../../test/harness.js';
import { newId } from '../../../lib/ids.js';
import { verifiedTrackingDomainOf } from './tracking-domains.repository.js';

const { Packet } = dns2;
/** The zone the test DNS server answers: host -> CNAME target (absent: no record). */
const zone = new Map<string, string>();
let server: ReturnType<typeof dns2.createServer>;
let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
const BASE = '/emails/api/custom-tracking-domains';

beforeAll(async () => {
  server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const target = question ? zone.get(question.name.toLowerCase()) : undefined;
      if (question && target) {
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.CNAME,
          class: Packet.CLASS.IN,
          ttl: 60,
          domain: target,
        } as never);
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (addresses as { udp: { port: number } }).udp.port;
  ctx = await createTestContext({
    config: { publicUrl: 'https://app.leadflow.test', dnsServers: [`127.0.0.1:${port}`] },
  });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(async () => {
  await ctx?.close();
  await server?.close();
});

describe('custom tracking domains', () => {
  it('adds a domain, verifies its CNAME against DNS, and fails one that points elsewhere', async () => {
    const created = await ctx.request(alice, {
      method: 'POST',
      url: BASE,
      payload: { domain: 'Track.Example.COM.' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const domain = created.json();
    expect(domain).toMatchObject({
      domain: 'track.example.com',
      status: 'pending',
      cname_target: 'app.leadflow.test',
      dns: { cname: { expected: 'app.leadflow.test', found: [], ok: false } },
    });

    const none = await ctx.request(alice, { method: 'POST', url: `${BASE}/${domain.uuid}/verify` });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toMatchObject({ status: 'failed', error: 'track.example.com has no CNAME record.' });

    zone.set('track.example.com', 'elsewhere.example.net');
    const wrong = (await ctx.request(alice, { method: 'POST', url: `${BASE}/${domain.uuid}/verify` })).json();
    expect(wrong).toMatchObject({ status: 'failed', cname_found: ['elsewhere.example.net'] });
    expect(wrong.error).toContain('not at app.leadflow.test');

    zone.set('track.example.com', 'APP.leadflow.test');
    const ok = (await ctx.request(alice, { method: 'POST', url: `${BASE}/${domain.uuid}/verify` })).json();
    expect(ok).toMatchObject({ status: 'verified', error: null, dns: { cname: { ok: true } } });
    expect(ok.verified_at).not.toBeNull();

    const got = await ctx.request(alice, { method: 'GET', url: `${BASE}/${domain.uuid}` });
    expect(got.json()).toEqual(ok);
    const listed = await ctx.request(alice, { method: 'GET', url: BASE });
    expect(listed.json()).toMatchObject({ total: 1, data: [{ uuid: domain.uuid }] });
    expect((await ctx.request(bob, { method: 'GET', url: `${BASE}/${domain.uuid}` })).statusCode).toBe(404);
    expect((await ctx.request(bob, { method: 'GET', url: BASE })).json().total).toBe(0);
    expect(
      (await ctx.request(bob, { method: 'POST', url: `${BASE}/${domain.uuid}/verify` })).statusCode,
    ).toBe(404);

    const duplicate = await ctx.request(alice, {
      method: 'POST',
      url: BASE,
      payload: { domain: 'track.example.com' },
    });
    expect(duplicate.statusCode).toBe(409);
    const bad = await ctx.request(alice, { method: 'POST', url: BASE, payload: { domain: 'not a host' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.data).toHaveProperty('domain');
  });

  it('is used by a mailbox once verified, and is refused as another team\u2019s reference', async () => {
    zone.set('links.alice.test', 'app.leadflow.test');
    const domain = (
      await ctx.request(alice, { method: 'POST', url: BASE, payload: { domain: 'links.alice.test' } })
    ).json();
    const mailbox = newId();
    const sender = newId();
    await ctx.db
      .insertInto('sender_profiles')
      .values({ team_id: alice.teamId, uuid: sender, first_name: 'Sam', schedule: '{}', limits: '{}' })
      .execute();
    await ctx.db
      .insertInto('mailboxes')
      .values({
        team_id: alice.teamId,
        uuid: mailbox,
        sender_profile_uuid: sender,
        email: 'sam@alice.test',
        sender_name: 'Sam',
        provider: 'smtp',
        connection_settings: '{}',
        secrets: '',
        custom_tracking_domain_uuid: domain.uuid,
      } as never)
      .execute();
    expect(await verifiedTrackingDomainOf(ctx.db, alice.teamId, mailbox)).toBeUndefined();
    await ctx.request(alice, { method: 'POST', url: `${BASE}/${domain.uuid}/verify` });
    expect(await verifiedTrackingDomainOf(ctx.db, alice.teamId, mailbox)).toBe('links.alice.test');

    const foreign = await ctx.request(bob, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${mailbox}`,
      payload: { custom_tracking_domain_uuid: domain.uuid },
    });
    expect(foreign.statusCode).toBe(404);
    const stolen = await ctx.request(alice, {
      method: 'PUT',
      url: `/emails/api/mailboxes/${mailbox}`,
      payload: { custom_tracking_domain_uuid: newId() },
    });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().error.data).toHaveProperty('custom_tracking_domain_uuid');

    const removed = await ctx.request(alice, { method: 'DELETE', url: `${BASE}/${domain.uuid}` });
    expect(removed.statusCode).toBe(204);
    const row = await ctx.db
      .selectFrom('mailboxes')
      .select('custom_tracking_domain_uuid')
      .where('uuid', '=', mailbox)
      .executeTakeFirstOrThrow();
    expect(row.custom_tracking_domain_uuid).toBeNull();
  });
});
