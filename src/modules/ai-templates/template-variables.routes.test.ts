// GET /flows/api/ai-templates/variables: what template editors complete - the fixed variables and the
// team's own custom fields, never another team's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('GET /flows/api/ai-templates/variables', () => {
  it("lists the variables with the team's custom fields", async () => {
    const [user, other] = [await ctx.createUser(), await ctx.createUser()];
    for (const [who, name, object] of [
      [user, 'Industry', 'lead'],
      [user, 'Tier', 'company'],
      [other, 'Secret', 'lead'],
    ] as const) {
      const res = await ctx.request(who, {
        method: 'POST',
        url: '/leads/api/custom-fields',
        payload: { name, object },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const res = await ctx.request(user, { method: 'GET', url: '/flows/api/ai-templates/variables' });
    expect(res.statusCode).toBe(200);
    const names = (res.json() as Array<{ name: string; group: string }>).map((v) => v.name);
    expect(names).toEqual(expect.arrayContaining(['first_name', 'company.domain', 'sender.first_name']));
    expect(names).toContain('custom_fields.Industry');
    expect(names).toContain('company.custom_fields.Tier');
    expect(names.some((n) => n.includes('Secret') || n.includes('<'))).toBe(false);
  });
});
