// Webhook CRUD, validation, the event catalog and team isolation, with the private-address guard on
// (the service's default): targets are public IP literals, which need no DNS and are never called here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeList } from '../../../test/factories.js';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { dereference } from '../../http/openapi-components.js';
import { newId } from '../../lib/ids.js';
import { EVENT_NAMES } from '../events/events.catalog.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
const TARGET = 'https://93.184.215.14/hooks/leadflow';

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await ctx.createUser();
  bob = await ctx.createUser();
});
afterAll(() => ctx.close());

async function createWebhook(user: TestUser, payload: Record<string, unknown> = {}) {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/integrations/api/webhooks',
    payload: { name: 'Replies', event: 'contact_replied_email', target_url: TARGET, ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('webhook CRUD', () => {
  it('creates a webhook, shows the secret once, and never again', async () => {
    const created = await createWebhook(alice, { request_method: 'PUT', filters: { email_status: 'ok' } });
    expect(created).toMatchObject({
      name: 'Replies',
      event: 'contact_replied_email',
      request_method: 'PUT',
      target_url: TARGET,
      filters: { email_status: 'ok' },
      status: 'on',
      team_id: alice.teamId,
      user_id: alice.userId,
      disabled_reason: null,
      last_error: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.data).toMatchObject({ uuid: created.uuid, name: 'Replies' });
    expect(created.data).not.toHaveProperty('secret');

    const got = await ctx.request(alice, {
      method: 'GET',
      url: `/integrations/api/webhooks/${created.uuid}`,
    });
    expect(got.statusCode).toBe(200);
    expect(got.json()).not.toHaveProperty('secret');
    expect(got.json()).toMatchObject({ uuid: created.uuid, request_method: 'PUT' });
    const listed = await ctx.request(alice, { method: 'GET', url: '/integrations/api/webhooks' });
    expect(listed.body).not.toContain(created.secret);
  });

  it('defaults to POST, status on and no filters', async () => {
    const created = await createWebhook(alice, { name: 'Defaults' });
    expect(created).toMatchObject({ request_method: 'POST', status: 'on', filters: null });
  });

  it('updates only the fields sent, and deletes with 204', async () => {
    const created = await createWebhook(alice, { name: 'Before' });
    const url = `/integrations/api/webhooks/${created.uuid}`;
    const updated = await ctx.request(alice, {
      method: 'PUT',
      url,
      payload: { name: 'After', status: 'off' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'After',
      status: 'off',
      event: 'contact_replied_email',
      target_url: TARGET,
    });

    const cleared = await ctx.request(alice, {
      method: 'PUT',
      url,
      payload: { filters: { list_uuid: (await makeList(ctx.db, alice.teamId)).uuid } },
    });
    expect(cleared.json().filters).toHaveProperty('list_uuid');
    const nulled = await ctx.request(alice, { method: 'PUT', url, payload: { filters: null } });
    expect(nulled.json().filters).toBeNull();

    expect((await ctx.request(alice, { method: 'DELETE', url })).statusCode).toBe(204);
    expect((await ctx.request(alice, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(alice, { method: 'DELETE', url })).statusCode).toBe(404);
  });

  it('switching a webhook back on clears why the service switched it off', async () => {
    const created = await createWebhook(alice, { name: 'Revived' });
    await ctx.db
      .updateTable('webhooks')
      .set({
        status: 'off',
        disabled_reason: 'Switched off: no successful delivery',
        failing_since: new Date(),
      })
      .where('uuid', '=', created.uuid)
      .execute();
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: `/integrations/api/webhooks/${created.uuid}`,
      payload: { status: 'on' },
    });
    expect(res.json()).toMatchObject({ status: 'on', disabled_reason: null });
    const reopened = await ctx.db
      .selectFrom('webhooks')
      .select('failing_since')
      .where('uuid', '=', created.uuid)
      .executeTakeFirstOrThrow();
    expect(reopened.failing_since).toBeNull();

    // Saying "on" to a webhook that is on keeps its failure window running.
    const since = new Date(Date.now() - 60_000);
    await ctx.db
      .updateTable('webhooks')
      .set({ failing_since: since })
      .where('uuid', '=', created.uuid)
      .execute();
    await ctx.request(alice, {
      method: 'PUT',
      url: `/integrations/api/webhooks/${created.uuid}`,
      payload: { status: 'on', name: 'Still failing' },
    });
    const kept = await ctx.db
      .selectFrom('webhooks')
      .select('failing_since')
      .where('uuid', '=', created.uuid)
      .executeTakeFirstOrThrow();
    expect(kept.failing_since).toEqual(since);
  });

  it('lists with the envelope, filters and paging', async () => {
    const carol = await ctx.createUser();
    await createWebhook(carol, { name: 'Export hook', event: 'contact_exported' });
    await createWebhook(carol, { name: 'Reply hook' });
    await createWebhook(carol, { name: 'Off hook', status: 'off' });
    const all = await ctx.request(carol, {
      method: 'GET',
      url: '/integrations/api/webhooks?limit=2&order_field=name&order_type=asc',
    });
    expect(all.json()).toMatchObject({ total: 3, limit: 2, offset: 0, has_more: true });
    expect(all.json().data.map((w: { name: string }) => w.name)).toEqual(['Export hook', 'Off hook']);
    const byEvent = await ctx.request(carol, {
      method: 'GET',
      url: '/integrations/api/webhooks?filter[event]=contact_exported',
    });
    expect(byEvent.json().data.map((w: { name: string }) => w.name)).toEqual(['Export hook']);
    const flat = await ctx.request(carol, { method: 'GET', url: '/integrations/api/webhooks?status=off' });
    expect(flat.json().data.map((w: { name: string }) => w.name)).toEqual(['Off hook']);
    const q = await ctx.request(carol, { method: 'GET', url: '/integrations/api/webhooks?filter[q]=reply' });
    expect(q.json().total).toBe(1);
    const badKey = await ctx.request(carol, {
      method: 'GET',
      url: '/integrations/api/webhooks?filter[secret]=x',
    });
    expect(badKey.statusCode).toBe(422);
  });
});

describe('webhook validation', () => {
  async function rejected(payload: Record<string, unknown>, field: string) {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/integrations/api/webhooks',
      payload: { name: 'Bad', event: 'contact_exported', target_url: TARGET, ...payload },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.data).toHaveProperty(field);
    return res.json().message as string;
  }

  it('refuses an unknown event, listing the catalog', async () => {
    const message = await rejected({ event: 'contact_created' }, 'event');
    for (const name of EVENT_NAMES) expect(message).toContain(name);
  });

  it('requires name, event and target_url and checks method and status', async () => {
    const res = await ctx.request(alice, { method: 'POST', url: '/integrations/api/webhooks', payload: {} });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error.data)).toEqual(
      expect.arrayContaining(['name', 'event', 'target_url']),
    );
    expect(await rejected({ request_method: 'TRACE' }, 'request_method')).toContain('POST');
    await rejected({ status: 'paused' }, 'status');
  });

  it('accepts only absolute http(s) targets without credentials', async () => {
    expect(await rejected({ target_url: 'ftp://93.184.215.14/x' }, 'target_url')).toContain('http or https');
    await rejected({ target_url: 'not a url' }, 'target_url');
    await rejected({ target_url: 'https://user:pass@93.184.215.14/x' }, 'target_url');
  });

  it('refuses loopback, private, link-local, CGNAT and metadata targets', async () => {
    for (const target of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://172.16.5.5/hook',
      'http://100.64.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fd00:ec2::254]/hook',
      'http://0.0.0.0/hook',
    ]) {
      const message = await rejected({ target_url: target }, 'target_url');
      expect(message, target).toContain('public addresses');
    }
  });

  it('compiles contact filters and reports the bad key', async () => {
    const message = await rejected({ filters: { favourite_color: 'blue' } }, 'filters.favourite_color');
    expect(message).toContain('list_uuid');
    await rejected({ filters: { list_uuid: 'not-a-uuid' } }, 'filters.list_uuid');
    await rejected({ filters: { custom_fields: { Nope: 'x' } } }, 'filters.custom_fields.Nope');
    const ok = await createWebhook(alice, {
      filters: { tags: [newId()], pipeline_stage_uuid: newId(), q: 'acme', custom_fields: {} },
    });
    expect(ok.filters).toHaveProperty('q', 'acme');
  });

  it('takes filters as a JSON string too (the MCP server sends one), checked like the object', async () => {
    const ok = await createWebhook(alice, { filters: JSON.stringify({ q: 'acme' }) });
    expect(ok.filters).toEqual({ q: 'acme' });
    expect((await createWebhook(alice, { filters: '' })).filters).toBeNull();
    expect(await rejected({ filters: '{"q": ' }, 'filters')).toContain('json-object');
    expect(await rejected({ filters: '[1]' }, 'filters')).toContain('json-object');
    await rejected({ filters: '{"favourite_color": "blue"}' }, 'filters.favourite_color');
  });

  it('refuses contact filters on events that are not about a contact', async () => {
    expect(
      await rejected({ event: 'account_exported', filters: { list_uuid: newId() } }, 'filters'),
    ).toContain('not about a contact');
    await createWebhook(alice, { event: 'account_exported', filters: {} });
    const created = await createWebhook(alice, { filters: { email_status: 'ok' } });
    const res = await ctx.request(alice, {
      method: 'PUT',
      url: `/integrations/api/webhooks/${created.uuid}`,
      payload: { event: 'sender_profile_issue' },
    });
    expect(res.statusCode).toBe(422);
  });

  it('accepts the hosted service\u2019s jsonLogic flow form and refuses what it cannot evaluate', async () => {
    const flow = newId();
    const created = await createWebhook(alice, {
      filters: {
        jsonLogic: {
          data: { flows: [{ flow_uuid: flow }] },
          logic: { or: [{ some: [{ var: 'flows' }, { '==': [{ var: 'flow_uuid' }, flow] }] }] },
        },
        filter_tree_format: { any: 'thing' },
        elasticQuery: { bool: {} },
      },
    });
    expect(created.filters.jsonLogic.data.flows[0].flow_uuid).toBe(flow);
    await createWebhook(alice, { filters: { jsonLogic: {} } });
    await rejected(
      { filters: { jsonLogic: { data: { flows: [{ flow_uuid: 'x' }] } } } },
      'filters.jsonLogic.data.flows.0.flow_uuid',
    );
    await rejected(
      { filters: { jsonLogic: { logic: { '==': [{ var: 'country' }, 'DE'] } } } },
      'filters.jsonLogic.logic.==.0.var',
    );
    await rejected(
      { filters: { jsonLogic: { logic: { some: [{ var: 'flows' }, true] } } } },
      'filters.jsonLogic.logic',
    );
    await rejected({ filters: { elasticQuery: { match_all: {} } } }, 'filters.elasticQuery');
  });
});

describe('event catalog', () => {
  it('lists every event with an example payload in the delivered envelope', async () => {
    const res = await ctx.request(alice, { method: 'GET', url: '/integrations/api/webhooks/events' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Array<{
      name: string;
      about_contact: boolean;
      example: Record<string, unknown>;
    }>;
    expect(data.map((event) => event.name)).toEqual([...EVENT_NAMES]);
    const replied = data.find((event) => event.name === 'contact_replied_linkedin_message')!;
    expect(replied.example).toMatchObject({
      event_name: 'contact_replied_linkedin_message',
      team_id: alice.teamId,
      contact: { list_name: 'CMO Germany' },
      linkedin_message: { type: 'inbox' },
      email: null,
    });
    const issue = data.find((event) => event.name === 'sender_profile_issue')!;
    expect(issue).toMatchObject({
      about_contact: false,
      example: { contact: null, issue: { type: 'login_issue' } },
    });
  });

  it('is part of the OpenAPI document with a payload schema per event', async () => {
    const document = dereference((await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json());
    const text = JSON.stringify(document.paths['/integrations/api/webhooks/events']);
    for (const name of EVENT_NAMES) expect(text).toContain(`${name} payload`);
  });
});

describe('team isolation', () => {
  it('answers 404 for another team\u2019s webhook on every record endpoint', async () => {
    const theirs = await createWebhook(bob, { name: 'Bob only' });
    const base = `/integrations/api/webhooks/${theirs.uuid}`;
    expect((await ctx.request(alice, { method: 'GET', url: base })).statusCode).toBe(404);
    expect((await ctx.request(alice, { method: 'PUT', url: base, payload: { name: 'x' } })).statusCode).toBe(
      404,
    );
    expect((await ctx.request(alice, { method: 'DELETE', url: base })).statusCode).toBe(404);
    expect((await ctx.request(alice, { method: 'GET', url: `${base}/deliveries` })).statusCode).toBe(404);
    expect(
      (await ctx.request(alice, { method: 'POST', url: `${base}/deliveries/${newId()}/retry` })).statusCode,
    ).toBe(404);
    const test = await ctx.request(alice, {
      method: 'POST',
      url: '/integrations/api/webhooks/test',
      payload: { uuid: theirs.uuid, event: 'contact_replied_email', target_url: TARGET },
    });
    expect(test.statusCode).toBe(404);
    const listed = await ctx.request(alice, { method: 'GET', url: '/integrations/api/webhooks?limit=1000' });
    expect(listed.json().data.map((w: { uuid: string }) => w.uuid)).not.toContain(theirs.uuid);
    expect((await ctx.request(bob, { method: 'GET', url: base })).statusCode).toBe(200);
  });
});
