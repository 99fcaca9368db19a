import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { orderByClause, type PageRequest, type SortSpec } from '../../../lib/pagination.js';

export const trackingDomainSort: SortSpec = {
  fields: {
    created_at: 'custom_tracking_domains.created_at',
    domain: 'custom_tracking_domains.domain',
    uuid: 'custom_tracking_domains.uuid',
  },
  tiebreaker: 'custom_tracking_domains.uuid',
};

export async function selectTrackingDomains(db: Executor, teamId: number, page: PageRequest) {
  const base = db.selectFrom('custom_tracking_domains').where('team_id', '=', teamId);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(orderByClause(page, trackingDomainSort))
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function selectTrackingDomain(db: Executor, teamId: number, uuid: string) {
  return db
    .selectFrom('custom_tracking_domains')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

export function insertTrackingDomain(db: Executor, row: { team_id: number; uuid: string; domain: string }) {
  return db
    .insertInto('custom_tracking_domains')
    .values({ team_id: row.team_id, uuid: row.uuid, domain: row.domain })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function recordCheck(
  db: Executor,
  teamId: number,
  uuid: string,
  check: { verified: boolean; found: string[]; error: string | null; at: Date },
) {
  return db
    .updateTable('custom_tracking_domains')
    .set({
      status: check.verified ? 'verified' : 'failed',
      cname_found: check.found,
      error: check.error,
      checked_at: check.at,
      verified_at: check.verified ? check.at : null,
      updated_at: check.at,
    })
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the domain; mailboxes that used it go back to the default tracking host. */
export async function deleteTrackingDomain(db: Executor, teamId: number, uuid: string): Promise<boolean> {
  await db
    .updateTable('mailboxes')
    .set({ custom_tracking_domain_uuid: null })
    .where('team_id', '=', teamId)
    .where('custom_tracking_domain_uuid', '=', uuid)
    .execute();
  const result = await db
    .deleteFrom('custom_tracking_domains')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A mailbox's verified custom tracking domain, or undefined (links use LEADFLOW_PUBLIC_URL). */
export async function verifiedTrackingDomainOf(db: Executor, teamId: number, mailboxUuid: string) {
  const { rows } = await sql<{ domain: string }>`
    select d.domain from mailboxes m
    join custom_tracking_domains d on d.team_id = ${teamId} and d.uuid = m.custom_tracking_domain_uuid
    where m.team_id = ${teamId} and m.uuid = ${mailboxUuid} and d.status = 'verified'
  `.execute(db);
  return rows[0]?.domain;
}
