// Test helpers of the contact tests: requests through the API, and direct inserts of the records other
// modules own (tags, custom fields, blacklist entries, companies), so these tests do not depend on
// those modules' endpoints.
import { expect } from 'vitest';
import { makeList } from '../../../test/factories.js';
import type { TestContext, TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';

export type WireLead = Record<string, unknown> & {
  uuid: string;
  tags: string[];
  custom_fields: Record<string, unknown>;
};

export async function createLeads(
  ctx: TestContext,
  user: TestUser,
  listUuid: string,
  leads: Record<string, unknown>[],
): Promise<WireLead[]> {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/leads/api/leads',
    payload: { list_uuid: listUuid, leads },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function upsert(ctx: TestContext, user: TestUser, body: Record<string, unknown>) {
  return ctx.request(user, { method: 'POST', url: '/leads/api/leads/upsert', payload: body });
}

export async function search(ctx: TestContext, user: TestUser, body: Record<string, unknown>) {
  const res = await ctx.request(user, { method: 'POST', url: '/leads/api/leads/search', payload: body });
  return res;
}

/** Names of the contacts a search finds (asserting it succeeded), sorted. */
export async function namesFound(ctx: TestContext, user: TestUser, filter: unknown): Promise<string[]> {
  const res = await search(ctx, user, { filter, limit: 1000 });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.total).toBe(body.data.length);
  return body.data.map((lead: { name: string }) => lead.name).sort();
}

export async function listOf(ctx: TestContext, user: TestUser, name = 'List') {
  return makeList(ctx.db, user.teamId, name);
}

export async function makeTag(ctx: TestContext, teamId: number, name: string) {
  return ctx.db
    .insertInto('tags')
    .values({ team_id: teamId, uuid: newId(), name })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeCustomField(
  ctx: TestContext,
  teamId: number,
  name: string,
  type: 'string' | 'number' | 'boolean' | 'date' = 'string',
) {
  return ctx.db
    .insertInto('custom_fields')
    .values({ team_id: teamId, uuid: newId(), name, type, object: 'lead' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeLeadBlacklistEntry(
  ctx: TestContext,
  teamId: number,
  entry: { name?: string; company_name?: string; linkedin?: string; ln_id?: string; email?: string },
) {
  await ctx.db
    .insertInto('leads_blacklist')
    .values({ team_id: teamId, uuid: newId(), ...entry })
    .execute();
}

export async function makeCompany(
  ctx: TestContext,
  teamId: number,
  company: { name?: string; domain?: string },
) {
  return ctx.db
    .insertInto('companies')
    .values({ team_id: teamId, uuid: newId(), custom_fields: '{}', ...company })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function stagesOf(ctx: TestContext, teamId: number, object: 'lead' | 'company' = 'lead') {
  return ctx.db
    .selectFrom('pipeline_stages')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('object', '=', object)
    .orderBy('order')
    .execute();
}
