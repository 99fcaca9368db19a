// Test helpers of the companies tests: requests through the API and inserts of the records other
// modules own (tags, custom fields, blacklist entries, notes), made directly so these tests do not
// depend on those modules' endpoints.
import { expect } from 'vitest';
import type { TestContext, TestUser } from '../../../test/harness.js';
import { newId } from '../../lib/ids.js';

export type WireCompany = Record<string, unknown> & { uuid: string };

export async function postCompanies(
  ctx: TestContext,
  user: TestUser,
  companies: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Promise<WireCompany[]> {
  const res = await ctx.request(user, {
    method: 'POST',
    url: '/leads/api/companies',
    payload: { companies, ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
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
  object: 'lead' | 'company' = 'company',
) {
  return ctx.db
    .insertInto('custom_fields')
    .values({ team_id: teamId, uuid: newId(), name, type, object })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeCompanyBlacklistEntry(
  ctx: TestContext,
  teamId: number,
  entry: { name?: string; domain?: string; linkedin?: string; ln_id?: number },
) {
  await ctx.db
    .insertInto('companies_blacklist')
    .values({ team_id: teamId, uuid: newId(), ...entry })
    .execute();
}

export async function makeNote(ctx: TestContext, teamId: number, companyUuid: string, note: string) {
  return ctx.db
    .insertInto('notes')
    .values({ team_id: teamId, uuid: newId(), object: 'company', object_uuid: companyUuid, note })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function companyStages(
  ctx: TestContext,
  teamId: number,
  object: 'lead' | 'company' = 'company',
) {
  return ctx.db
    .selectFrom('pipeline_stages')
    .select(['uuid', 'name'])
    .where('team_id', '=', teamId)
    .where('object', '=', object)
    .orderBy('order')
    .execute();
}
