// The one way to record domain events. Call it with the transaction of the change the events report:
// the event rows (and the job that fans them out to webhooks) commit or roll back with the change.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { enqueueJob } from '../../jobs/queue.js';
import { newId } from '../../lib/ids.js';
import { recordActivities, recordActivitiesFrom } from '../activities/activities.repository.js';
import {
  activityColumns,
  activityOfEvent,
  eventActivities,
  eventPayload,
} from '../activities/activity-types.js';
import { EVENT_CATALOG, EVENT_OBJECT_KEYS, type EventName, isEventName } from './events.catalog.js';
import { fanOutEventsJob } from './events.jobs.js';
import type { EventObjects } from './events.schemas.js';
import { accountSnapshots, contactSnapshots } from './events.snapshot.js';

export type EventInput = EventObjects & {
  name: EventName;
  /** The contact the event is about; `contact` (and `account`, its company) are read from the database. */
  leadUuid?: string | null;
  /** The company (account_exported); overrides the contact's company as `account`. */
  companyUuid?: string | null;
  /** Defaults to the transaction's start time. */
  occurredAt?: Date;
};

/** Contacts of a set-based emit: their uuids, or a subquery selecting one uuid column. */
export type LeadSelection = string[] | RawBuilder<unknown>;

const OBJECT_KEYS = ['sender_profile', 'automation', ...EVENT_OBJECT_KEYS] as const;

/**
 * The stored payload, in the order receivers see it: contact, account, then every other object key
 * (null when the event lacks it), taken from the jsonb `objects` expression.
 */
function payloadJson(
  contact: RawBuilder<unknown>,
  account: RawBuilder<unknown>,
  objects: RawBuilder<unknown>,
) {
  const rest = OBJECT_KEYS.map((key) => sql`${sql.lit(key)}, ${objects} -> ${sql.lit(key)}`);
  return sql`json_build_object('contact', ${contact}, 'account', ${account}, ${sql.join(rest)})`;
}

function checkName(name: string): asserts name is EventName {
  if (!isEventName(name)) throw new Error(`Unknown event "${name}"; add it to events.catalog.ts first`);
}

function objectsOf(input: EventObjects): Record<string, unknown> {
  const objects: Record<string, unknown> = {};
  for (const key of OBJECT_KEYS) if (input[key] !== undefined) objects[key] = input[key];
  return objects;
}

/**
 * The names among `names` that an active webhook of the team listens to. Events nobody listens to
 * are recorded without a fan-out batch, so they cost no job and no delivery work.
 */
async function subscribedNames(trx: Executor, teamId: number, names: string[]): Promise<string[]> {
  const rows = await trx
    .selectFrom('webhooks')
    .select('event')
    .distinct()
    .where('team_id', '=', teamId)
    .where('status', '=', 'on')
    .where('event', 'in', names)
    .execute();
  return rows.map((row) => row.event);
}

/**
 * Records `events` for the team inside `trx` and returns their uuids in input order. Contacts and
 * companies are snapshotted in one statement; a contact or company that is not the team's is a bug
 * in the caller and throws (rolling the change back with it).
 */
export async function emitEvents(
  trx: Executor,
  teamId: number,
  events: EventInput[],
  options: { fanOut?: boolean; timeline?: boolean } = {},
): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => {
    checkName(event.name);
    const definition = EVENT_CATALOG[event.name];
    if (definition.contact && !event.leadUuid) throw new Error(`Event ${event.name} needs a leadUuid`);
    if (event.name === 'account_exported' && !event.companyUuid) {
      throw new Error('Event account_exported needs a companyUuid');
    }
    return {
      uuid: newId(),
      name: event.name,
      lead_uuid: event.leadUuid ?? null,
      company_uuid: event.companyUuid ?? null,
      occurred_at: event.occurredAt?.toISOString() ?? null,
      objects: objectsOf(event),
    };
  });
  const leadUuids = [...new Set(rows.flatMap((row) => (row.lead_uuid ? [row.lead_uuid] : [])))];
  const companyUuids = [...new Set(rows.flatMap((row) => (row.company_uuid ? [row.company_uuid] : [])))];
  // Without fan-out the events are delivered only where the caller sends them (deliverEventsTo).
  const subscribed =
    options.fanOut === false
      ? []
      : await subscribedNames(trx, teamId, [...new Set(rows.map((row) => row.name))]);
  const batch = subscribed.length > 0 ? newId() : null;

  const result = await sql<{ missing_leads: number; missing_companies: number }>`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as i(
        uuid uuid, name text, lead_uuid uuid, company_uuid uuid, occurred_at timestamptz, objects jsonb)
    ),
    contacts as (${contactSnapshots(teamId, sql<SqlBool>`l.uuid = any(${leadUuids}::uuid[])`)}),
    accounts as (${accountSnapshots(teamId, sql<SqlBool>`c.uuid = any(${companyUuids}::uuid[])`)}),
    inserted as (
      insert into events (team_id, uuid, name, lead_uuid, payload, occurred_at, fanout_batch)
      select ${teamId}, i.uuid, i.name, i.lead_uuid,
        ${payloadJson(sql`s.contact`, sql`coalesce(a.account, s.account)`, sql`i.objects`)},
        coalesce(i.occurred_at, now()),
        case when i.name = any(${subscribed}::text[]) then ${batch}::uuid end
      from input i
      left join contacts s on s.lead_uuid = i.lead_uuid
      left join accounts a on a.company_uuid = i.company_uuid
      returning 1
    )
    select
      (select count(*) from input i where i.lead_uuid is not null
         and not exists (select 1 from contacts s where s.lead_uuid = i.lead_uuid))::int as missing_leads,
      (select count(*) from input i where i.company_uuid is not null
         and not exists (select 1 from accounts a where a.company_uuid = i.company_uuid))::int as missing_companies,
      (select count(*) from inserted)::int as inserted
  `.execute(trx);
  const check = result.rows[0];
  if (check && (check.missing_leads > 0 || check.missing_companies > 0)) {
    throw new Error(
      `emitEvents: ${check.missing_leads} contact(s) and ${check.missing_companies} company(ies) are not records of team ${teamId}`,
    );
  }
  if (batch) await enqueueJob(trx, fanOutEventsJob, { teamId, batch });
  // The contact's timeline records the fact with the event (a synthetic delivery says timeline: false).
  if (options.timeline !== false) await recordActivities(trx, teamId, eventActivities(rows));
  return rows.map((row) => row.uuid);
}

/** Inserts one `name` event per row of `snapshots` (columns contact?, account, lead_uuid?). */
async function emitSnapshots(
  trx: Executor,
  teamId: number,
  name: EventName,
  snapshots: RawBuilder<unknown>,
  kind: 'contact' | 'company',
  extra: EventObjects,
): Promise<number> {
  checkName(name);
  const subscribed = await subscribedNames(trx, teamId, [name]);
  const batch = subscribed.length > 0 ? newId() : null;
  const [leadUuid, contact] =
    kind === 'contact' ? [sql`s.lead_uuid`, sql`s.contact`] : [sql`null::uuid`, sql`null::json`];
  const result = await sql`
    insert into events (team_id, uuid, name, lead_uuid, payload, occurred_at, fanout_batch)
    select ${teamId}, leadflow_uuid_v7(), ${name}, ${leadUuid},
      ${payloadJson(contact, sql`s.account`, sql`${JSON.stringify(objectsOf(extra))}::jsonb`)},
      now(), ${batch}::uuid
    from (${snapshots}) s
  `.execute(trx);
  const count = Number(result.numAffectedRows ?? 0);
  if (batch && count > 0) await enqueueJob(trx, fanOutEventsJob, { teamId, batch });
  return count;
}

function selection(leads: LeadSelection, alias: 'l' | 'c'): RawBuilder<SqlBool> {
  const column = sql.ref(`${alias}.uuid`);
  return Array.isArray(leads)
    ? sql<SqlBool>`${column} = any(${leads}::uuid[])`
    : sql<SqlBool>`${column} in (${leads})`;
}

/**
 * One `name` event per selected contact of the team, in a single INSERT ... SELECT (a finished
 * million-contact export is one statement). `extra` objects (sender_profile, automation...) are the
 * same on every event. Contacts that are not the team's are skipped. Returns the number recorded.
 */
export async function emitContactEvents(
  trx: Executor,
  teamId: number,
  name: EventName,
  leads: LeadSelection,
  extra: EventObjects = {},
): Promise<number> {
  if (!EVENT_CATALOG[name]?.contact) throw new Error(`Event ${name} is not about a contact`);
  if (Array.isArray(leads) && leads.length === 0) return 0;
  const type = activityOfEvent(name);
  if (type) {
    const payload = sql`${JSON.stringify(eventPayload(extra as Record<string, unknown>))}::jsonb`;
    await recordActivitiesFrom(
      trx,
      teamId,
      sql`select ${activityColumns({ objectType: 'lead', objectUuid: sql`l.uuid`, companyUuid: sql`l.company_uuid`, type, payload })}
        from leads l where l.team_id = ${teamId} and ${selection(leads, 'l')}`,
    );
  }
  return emitSnapshots(trx, teamId, name, contactSnapshots(teamId, selection(leads, 'l')), 'contact', extra);
}

/** As emitContactEvents, for company events (account_exported): one event per selected company. */
export async function emitCompanyEvents(
  trx: Executor,
  teamId: number,
  name: EventName,
  companies: LeadSelection,
  extra: EventObjects = {},
): Promise<number> {
  if (name !== 'account_exported') throw new Error(`Event ${name} is not about a company`);
  if (Array.isArray(companies) && companies.length === 0) return 0;
  return emitSnapshots(
    trx,
    teamId,
    name,
    accountSnapshots(teamId, selection(companies, 'c')),
    'company',
    extra,
  );
}
