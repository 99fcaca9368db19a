// LEADFLOW_WEBHOOKS_ALLOW_PRIVATE (and LEADFLOW_OUTBOUND_ALLOW_PRIVATE) open the operator's own networks
// to webhooks, not link-local addresses or cloud metadata services; LEADFLOW_WEBHOOKS_ALLOWLIST opens
// exactly what it names. Through the API, with the settings read from the environment as a deployment
// sets them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, type TestUser } from '../../../test/harness.js';
import { type Receiver, startReceiver } from './receiver.test-support.js';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const test = (ctx: TestContext, user: TestUser, target: string) =>
  ctx.request(user, {
    method: 'POST',
    url: '/integrations/api/webhooks/test',
    payload: { event: 'contact_enriched', target_url: target },
  });

describe('LEADFLOW_WEBHOOKS_ALLOW_PRIVATE=true', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { LEADFLOW_WEBHOOKS_ALLOW_PRIVATE: 'true' } });
    user = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it('delivers to a receiver on this machine', async () => {
    const res = await test(ctx, user, `${receiver.url}/local`);
    expect(res.statusCode).toBe(200);
    expect(receiver.requests.some((request) => request.path === '/local')).toBe(true);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://[fe80::1]/hook', 'link-local'],
    ['http://[fd00:ec2::254]/latest/meta-data/', 'cloud metadata'],
    ['http://100.100.100.200/latest/meta-data/', 'cloud metadata'],
    [
      'http://metadata.google.internal/computeMetadata/v1/',
      'metadata.google.internal is a cloud metadata host',
    ],
  ])('still refuses %s', async (target, reason) => {
    const res = await test(ctx, user, target);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.data.target_url[0]).toContain(reason);
    expect(res.json().message).toContain(
      'unless LEADFLOW_WEBHOOKS_ALLOWLIST or LEADFLOW_OUTBOUND_ALLOWLIST names them',
    );
    const created = await ctx.request(user, {
      method: 'POST',
      url: '/integrations/api/webhooks',
      payload: { name: 'Metadata', event: 'contact_enriched', target_url: target },
    });
    expect(created.statusCode).toBe(422);
  });
});

describe('LEADFLOW_WEBHOOKS_ALLOWLIST', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({
      env: {
        LEADFLOW_WEBHOOKS_ALLOWLIST: '127.0.0.1/32, 169.254.169.254',
        LEADFLOW_WEBHOOK_TIMEOUT_MS: '300',
      },
    });
    user = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it('opens a named range while private targets stay closed', async () => {
    const local = await test(ctx, user, `${receiver.url}/allowlisted`);
    expect(local.statusCode).toBe(200);
    expect(receiver.requests.some((request) => request.path === '/allowlisted')).toBe(true);
    const other = await test(ctx, user, 'http://10.0.0.5/hook');
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toContain('10.0.0.5 is a private address');
  });

  it('opens a named metadata address (the guard lets it through; nothing answers here)', async () => {
    const res = await test(ctx, user, 'http://169.254.169.254/latest/meta-data/');
    expect(res.statusCode).toBe(200);
    expect(res.json().error ?? '').not.toContain('link-local');
  });

  it('is checked when the configuration is read', async () => {
    await expect(
      createTestContext({ env: { LEADFLOW_WEBHOOKS_ALLOWLIST: '10.0.0.0/40, http://hooks' } }),
    ).rejects.toThrow(
      'LEADFLOW_WEBHOOKS_ALLOWLIST: "10.0.0.0/40" is not a CIDR range like 10.0.0.0/8 or fd00::/8\n' +
        '  - LEADFLOW_WEBHOOKS_ALLOWLIST: "http://hooks" is neither an IP address, a CIDR range nor a host name',
    );
  });
});

describe('LEADFLOW_OUTBOUND_ALLOW_PRIVATE=true (every outbound kind, webhooks included)', () => {
  let ctx: TestContext;
  let user: TestUser;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { LEADFLOW_OUTBOUND_ALLOW_PRIVATE: 'true' } });
    user = await ctx.createUser();
  });
  afterAll(() => ctx.close());

  it('delivers to a receiver on this machine; link-local stays closed', async () => {
    const res = await test(ctx, user, `${receiver.url}/outbound`);
    expect(res.statusCode).toBe(200);
    expect(receiver.requests.some((request) => request.path === '/outbound')).toBe(true);
    const metadata = await test(ctx, user, 'http://169.254.169.254/latest/meta-data/');
    expect(metadata.statusCode).toBe(422);
  });
});
