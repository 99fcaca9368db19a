// Reference fields name the caller's own records: a data source on companies and import records, the
// attachments of an AI template and a webhook's filters.list_uuid refuse another team's uuid and one that
// names nothing with a 422 naming the field, like every other reference field.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import {
  multipart,
  startImport,
  tempFilesDir,
  uploadOk,
} from '../../src/modules/files/files.test-support.js';
import { makeList } from '../factories.js';
import { createTestContext, type TestContext, type TestUser } from '../harness.js';

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
const mine = { list: '', source: '', attachment: '' };
const theirs = { list: '', source: '', attachment: '' };
const NOTHING = newId();

async function setUp(user: TestUser, into: typeof mine) {
  into.list = (await makeList(ctx.db, user.teamId)).uuid;
  const source = await ctx.request(user, {
    method: 'POST',
    url: '/leads/api/data-sources',
    payload: { type: 'csv_leads', list_uuid: into.list },
  });
  expect(source.statusCode, source.body).toBe(201);
  into.source = source.json().uuid;
  const body = multipart([{ name: 'attachment', content: 'Our prices', filename: 'prices.txt' }]);
  const attachment = await ctx.request(user, {
    method: 'POST',
    url: '/flows/api/attachments',
    payload: body.payload,
    headers: body.headers,
  });
  expect(attachment.statusCode, attachment.body).toBe(201);
  into.attachment = attachment.json().uuid;
}

beforeAll(async () => {
  ctx = await createTestContext({ config: { filesDir: await tempFilesDir() } });
  alice = await ctx.createUser();
  bob = await ctx.createUser();
  await setUp(alice, mine);
  await setUp(bob, theirs);
});
afterAll(() => ctx.close());

function expectRefused(res: LightMyRequestResponse, field: string, what: string) {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().error.data, res.body).toHaveProperty([field]);
  expect(res.json().message).toContain(what);
}

describe('data_source_uuid', () => {
  it('on companies: created and updated with an own source, refused with another team\u2019s or none', async () => {
    const create = (data_source_uuid: string) =>
      ctx.request(alice, {
        method: 'POST',
        url: '/leads/api/companies',
        payload: { companies: [{ name: `Acme ${data_source_uuid}` }], data_source_uuid },
      });
    for (const uuid of [theirs.source, NOTHING]) {
      expectRefused(await create(uuid), 'data_source_uuid', 'does not name one of your data sources');
    }
    const created = await create(mine.source);
    expect(created.statusCode, created.body).toBe(200);
    const company = created.json()[0];
    expect(company.data_source_uuid).toBe(mine.source);

    const update = (data_source_uuid: string | null) =>
      ctx.request(alice, {
        method: 'PUT',
        url: `/leads/api/companies/${company.uuid}`,
        payload: { data_source_uuid },
      });
    for (const uuid of [theirs.source, NOTHING]) {
      expectRefused(await update(uuid), 'data_source_uuid', 'does not name one of your data sources');
    }
    const cleared = await update(null);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data_source_uuid).toBeNull();
  });

  it('on an import record: started with an own source, refused with another team\u2019s or none', async () => {
    const upload = await uploadOk(ctx, alice, 'first_name,email\nAnn,ann@example.test\n');
    const start = (data_source_uuid: string) =>
      startImport(ctx, alice, upload.uuid, {
        list_uuid: mine.list,
        columns: [
          { source: 'first_name', target: 'first_name' },
          { source: 'email', target: 'email' },
        ],
        data_source_uuid,
      });
    for (const uuid of [theirs.source, NOTHING]) {
      expectRefused(await start(uuid), 'data_source_uuid', 'does not name one of your data sources');
    }
    const started = await start(mine.source);
    expect(started.statusCode, started.body).toBe(200);
  });
});

describe('AI template attachments', () => {
  it('are the team\u2019s attachments, on create and on update', async () => {
    const create = (uuid: string) =>
      ctx.request(alice, {
        method: 'POST',
        url: '/flows/api/ai-templates',
        payload: { name: 'With a file', type: 'message', is_public: 1, body: 'Hi', attachments: [{ uuid }] },
      });
    for (const uuid of [theirs.attachment, NOTHING]) {
      expectRefused(await create(uuid), 'attachments[0].uuid', 'no attachment of yours');
    }
    const created = await create(mine.attachment);
    expect(created.statusCode, created.body).toBe(201);
    const update = await ctx.request(alice, {
      method: 'PUT',
      url: `/flows/api/ai-templates/${created.json().uuid}`,
      payload: { attachments: [{ uuid: mine.attachment }, { uuid: theirs.attachment }] },
    });
    expectRefused(update, 'attachments[1].uuid', 'no attachment of yours');
  });
});

describe('webhook filters.list_uuid', () => {
  const TARGET = 'https://93.184.215.14/hooks/leadflow';
  const create = (filters: Record<string, unknown>) =>
    ctx.request(alice, {
      method: 'POST',
      url: '/integrations/api/webhooks',
      payload: { name: 'Replies', event: 'contact_replied_email', target_url: TARGET, filters },
    });

  it('names the team\u2019s lists in every form the filter takes', async () => {
    for (const list_uuid of [theirs.list, NOTHING, [mine.list, theirs.list], { '!=': theirs.list }]) {
      expectRefused(await create({ list_uuid }), 'filters.list_uuid', 'does not name one of your lists');
    }
    const created = await create({ list_uuid: [mine.list] });
    expect(created.statusCode, created.body).toBe(201);
    const update = await ctx.request(alice, {
      method: 'PUT',
      url: `/integrations/api/webhooks/${created.json().uuid}`,
      payload: { filters: { list_uuid: theirs.list } },
    });
    expectRefused(update, 'filters.list_uuid', 'does not name one of your lists');
  });
});
