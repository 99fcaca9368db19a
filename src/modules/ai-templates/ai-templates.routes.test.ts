import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { multipart, tempFilesDir } from '../files/files.test-support.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
/** An attachment of alice's (templates may name only their team's). */
let attachment: string;

beforeAll(async () => {
  ctx = await createTestContext({ config: { filesDir: await tempFilesDir() } });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  const body = multipart([{ name: 'attachment', content: 'Our prices', filename: 'prices.txt' }]);
  const res = await ctx.request(alice, {
    method: 'POST',
    url: '/flows/api/attachments',
    payload: body.payload,
    headers: body.headers,
  });
  expect(res.statusCode, res.body).toBe(201);
  attachment = res.json().uuid;
});
afterAll(() => ctx.close());

const URL = '/flows/api/ai-templates';

async function create(user: TestUser, payload: Record<string, unknown>) {
  const res = await ctx.request(user, { method: 'POST', url: URL, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Record<string, unknown> & { uuid: string };
}

describe('AI templates CRUD', () => {
  it('creates the facts\u2019 object, gets, updates, lists and deletes it', async () => {
    const created = await create(alice, {
      name: 'Cold outreach \u2014 CTO',
      type: 'message',
      is_public: 1,
      body: 'Hi {{first_name}}, \u2026',
      prompt: 'Write an opener for {{first_name}}.',
      llm_config: { model: 'gpt-4o-mini', temperature: 0.5 },
      enable_fallback: true,
      attachments: [{ uuid: attachment }],
      settings: { max_length: 500 },
    });
    expect(created).toEqual({
      uuid: expect.any(String),
      team_id: alice.teamId,
      user_id: alice.userId,
      template_category_uuid: null,
      name: 'Cold outreach \u2014 CTO',
      type: 'message',
      is_public: 1,
      subject: null,
      body: 'Hi {{first_name}}, \u2026',
      fallback_body: null,
      attachments: [{ uuid: attachment }],
      prompt: 'Write an opener for {{first_name}}.',
      llm_uuid: null,
      llm_config: { model: 'gpt-4o-mini', temperature: 0.5 },
      enable_validation: false,
      validation_prompt: null,
      validation_llm_uuid: null,
      validation_llm_config: null,
      enable_fallback: true,
      settings: { max_length: 500 },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const url = `${URL}/${created.uuid}`;
    expect((await ctx.request(alice, { method: 'GET', url })).json()).toEqual(created);

    const updated = await ctx.request(alice, {
      method: 'PUT',
      url,
      payload: { name: 'v2', enable_validation: true, validation_prompt: 'Polite?', llm_config: null },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'v2',
      enable_validation: true,
      validation_prompt: 'Polite?',
      llm_config: null,
      body: 'Hi {{first_name}}, \u2026',
      enable_fallback: true,
    });
    expect(Date.parse(updated.json().updated_at)).toBeGreaterThanOrEqual(
      Date.parse(created.updated_at as string),
    );

    const listed = await ctx.request(alice, { method: 'GET', url: `${URL}?filter[type]=message` });
    expect(listed.json()).toMatchObject({
      total: 1,
      has_more: false,
      data: [{ uuid: created.uuid, name: 'v2' }],
    });

    expect((await ctx.request(alice, { method: 'DELETE', url })).statusCode).toBe(204);
    expect((await ctx.request(alice, { method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.request(alice, { method: 'PUT', url, payload: { name: 'x' } })).statusCode).toBe(404);
    expect((await ctx.request(alice, { method: 'DELETE', url })).statusCode).toBe(404);
    const after = await ctx.request(alice, { method: 'GET', url: URL });
    expect(after.json().data.map((t: { uuid: string }) => t.uuid)).not.toContain(created.uuid);
  });

  it.each([
    ['name', { type: 'message', is_public: 1 }],
    ['type', { name: 'x', type: 'sms', is_public: 1 }],
    ['is_public', { name: 'x', type: 'message', is_public: 2 }],
    ['is_public', { name: 'x', type: 'message', is_public: '1' }],
    ['name', { name: '   ', type: 'message', is_public: 0 }],
    ['llm_config.temperature', { name: 'x', type: 'email', is_public: 0, llm_config: { temperature: 9 } }],
    ['colour', { name: 'x', type: 'email', is_public: 0, colour: 'red' }],
  ])('refuses a missing or wrong %s with a 422 naming it', async (field, payload) => {
    const res = await ctx.request(alice, { method: 'POST', url: URL, payload });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().error.data).join(' ')).toContain(field);
    expect(res.json().error.message).toContain(field.split('.').at(-1));
  });

  it('takes type message and is_public 1 when a client leaves them out (the MCP server does)', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: '/ai/api/templates',
      payload: { name: 'Bare' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Bare', type: 'message', is_public: 1 });
  });

  it('names every missing required field at once', async () => {
    const res = await ctx.request(alice, { method: 'POST', url: URL, payload: {} });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error.data).sort()).toEqual(['name']);
  });

  it('refuses template fields that do not parse, naming each', async () => {
    const res = await ctx.request(alice, {
      method: 'POST',
      url: URL,
      payload: {
        name: 'Broken',
        type: 'email',
        is_public: 1,
        subject: '{% if first_name %}Hi',
        body: 'ok {{ first_name }}',
        prompt: '{{ first_name | nosuch }}',
      },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().error.data).sort()).toEqual(['prompt', 'subject']);
    expect(res.json().error.data.subject[0]).toMatch(/^subject: .*not closed/);
    const template = await create(alice, { name: 'Fine', type: 'message', is_public: 1 });
    const put = await ctx.request(alice, {
      method: 'PUT',
      url: `${URL}/${template.uuid}`,
      payload: { body: '{% include "x" %}' },
    });
    expect(put.statusCode).toBe(422);
    expect(put.json().error.data.body[0]).toMatch(/include tag is not available/);
  });

  it('keeps teams apart and private templates to their creator', async () => {
    const shared = await create(alice, { name: 'Shared', type: 'connection_note', is_public: 1 });
    const secret = await create(alice, { name: 'Secret', type: 'connection_note', is_public: 0 });
    expect(secret.is_public).toBe(0);
    for (const template of [shared, secret]) {
      const url = `${URL}/${template.uuid}`;
      expect((await ctx.request(bob, { method: 'GET', url })).statusCode).toBe(404);
      expect((await ctx.request(bob, { method: 'PUT', url, payload: { name: 'x' } })).statusCode).toBe(404);
      expect((await ctx.request(bob, { method: 'DELETE', url })).statusCode).toBe(404);
    }
    expect((await ctx.request(bob, { method: 'GET', url: URL })).json().total).toBe(0);

    // A teammate sees the public template, not the private one.
    const carol = await ctx.services.identity.createUserWithTeam({
      email: 'carol@example.test',
      teamName: 'C',
    });
    await ctx.services.identity.addMember('carol@example.test', alice.teamId);
    const asCarol = {
      headers: { authorization: `Bearer ${carol.api_key}`, 'team-id': String(alice.teamId) },
    };
    const seen = await ctx.app.inject({ method: 'GET', url: `${URL}?limit=100`, ...asCarol });
    expect(seen.statusCode, seen.body).toBe(200);
    const names = seen.json().data.map((t: { name: string }) => t.name);
    expect(names).toContain('Shared');
    expect(names).not.toContain('Secret');
    expect(
      (await ctx.app.inject({ method: 'GET', url: `${URL}/${secret.uuid}`, ...asCarol })).statusCode,
    ).toBe(404);
  });

  it('lists with paging, sorting and filters', async () => {
    const dave = await ctx.createUser();
    for (const [name, type] of [
      ['A note', 'connection_note'],
      ['B mail', 'email'],
      ['C comment', 'post_comment'],
    ]) {
      await create(dave, { name, type, is_public: 1 });
    }
    const page = await ctx.request(dave, {
      method: 'GET',
      url: `${URL}?limit=2&order_field=name&order_type=asc`,
    });
    expect(page.json()).toMatchObject({ total: 3, limit: 2, has_more: true });
    expect(page.json().data.map((t: { name: string }) => t.name)).toEqual(['A note', 'B mail']);
    const q = await ctx.request(dave, { method: 'GET', url: `${URL}?filter[q]=mail` });
    expect(q.json().data.map((t: { name: string }) => t.name)).toEqual(['B mail']);
    const flat = await ctx.request(dave, { method: 'GET', url: `${URL}?type=post_comment` });
    expect(flat.json().data.map((t: { name: string }) => t.name)).toEqual(['C comment']);
  });
});

describe('the AI API paths of templates', () => {
  it('serve the same templates under /ai/api/templates and the variables at /ai/api/variables', async () => {
    const created = await ctx.request(alice, {
      method: 'POST',
      url: '/ai/api/templates',
      payload: { name: 'Via the AI API', type: 'message', is_public: 1, body: 'Hi {{first_name}}' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const uuid = created.json().uuid as string;
    const documented = await ctx.request(alice, { method: 'GET', url: `${URL}/${uuid}` });
    expect(documented.json()).toMatchObject({ uuid, name: 'Via the AI API' });
    const listed = await ctx.request(alice, { method: 'GET', url: '/ai/api/templates?limit=100' });
    expect(listed.json().data.map((t: { uuid: string }) => t.uuid)).toContain(uuid);
    expect((await ctx.request(bob, { method: 'GET', url: `/ai/api/templates/${uuid}` })).statusCode).toBe(
      404,
    );
    const variables = await ctx.request(alice, { method: 'GET', url: '/ai/api/variables?limit=100' });
    expect(variables.statusCode).toBe(200);
    expect(variables.json().data.map((v: { name: string }) => v.name)).toContain('first_name');
    expect(
      (await ctx.request(alice, { method: 'DELETE', url: `/ai/api/templates/${uuid}` })).statusCode,
    ).toBe(204);
  });
});
