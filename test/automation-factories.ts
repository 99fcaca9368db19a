// Insert-based factories for automation tests: flows with a version, sender profiles and seats, and
// enrollments, written the way the flows and senders modules write them (see /notes in their CONTEXT).
import type { Database } from '../src/db/database.js';
import { newId } from '../src/lib/ids.js';
import type { Schedule } from '../src/lib/schedule.js';
import { makeLeads, makeList } from './factories.js';
import { buildNodes, type NodeSpec } from './node-specs.js';

export { buildNodes, type NodeSpec };

/** Every day, all day, in UTC. */
export const ALWAYS: Schedule = {
  timezone: 'UTC',
  use_lead_timezone: false,
  timeblocks: [0, 1, 2, 3, 4, 5, 6].map((dow) => ({ dow, min: 0, max: 1440 })),
};

export async function makeSender(
  db: Database,
  teamId: number,
  fields: Partial<{
    schedule: Schedule;
    limits: Record<string, number>;
    action_interval_seconds: number | null;
    first_name: string;
  }> = {},
) {
  return db
    .insertInto('sender_profiles')
    .values({
      team_id: teamId,
      uuid: newId(),
      first_name: fields.first_name ?? 'Sam',
      last_name: 'Sender',
      schedule: JSON.stringify(fields.schedule ?? ALWAYS),
      limits: JSON.stringify(fields.limits ?? {}),
      weekly_limits: '{}',
      action_interval_seconds: fields.action_interval_seconds ?? 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeSandboxSeat(db: Database, teamId: number, senderUuid: string) {
  return db
    .insertInto('linkedin_browsers')
    .values({ team_id: teamId, sender_profile_uuid: senderUuid, driver: 'sandbox', status: 'running' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeFlow(
  db: Database,
  teamId: number,
  options: {
    nodes: NodeSpec[];
    senders: string[];
    entry?: number;
    schedule?: Schedule;
    status?: 'on' | 'off' | 'draft';
    priority?: number;
    name?: string;
    useSenderSchedule?: boolean;
  },
) {
  const flowUuid = newId();
  const versionUuid = newId();
  const contactSources = [
    {
      id: 1,
      name: null,
      rotation_strategy: 'fair',
      sender_profiles: options.senders,
      after_id: options.entry ?? options.nodes[0]?.id ?? 1,
      mass_actions_filter: null,
      filter_tree_format: null,
    },
  ];
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('flows')
      .values({
        team_id: teamId,
        uuid: flowUuid,
        name: options.name ?? 'Flow',
        flow_version_uuid: versionUuid,
        schedule: JSON.stringify(options.schedule ?? ALWAYS),
        status: options.status ?? 'on',
        priority: options.priority ?? 2,
        use_sender_schedule: options.useSenderSchedule ?? false,
        settings: '{}',
      })
      .execute();
    await trx
      .insertInto('flow_versions')
      .values({
        team_id: teamId,
        uuid: versionUuid,
        flow_uuid: flowUuid,
        nodes: JSON.stringify(buildNodes(options.nodes)),
        contact_sources: JSON.stringify(contactSources),
      })
      .execute();
  });
  return { uuid: flowUuid, versionUuid };
}

/** Enrolls contacts the way the flows module does (model note, rule 1). */
export async function enroll(
  db: Database,
  teamId: number,
  flow: { uuid: string; versionUuid: string },
  leadUuids: string[],
  options: { entry?: number; active?: boolean; at?: Date } = {},
) {
  return db
    .insertInto('flow_leads')
    .values(
      leadUuids.map((lead) => ({
        team_id: teamId,
        uuid: newId(),
        flow_uuid: flow.uuid,
        flow_version_uuid: flow.versionUuid,
        lead_uuid: lead,
        contact_source_id: 1,
        status: 'in_progress' as const,
        flow_node_id: options.entry ?? 1,
        next_run_at: options.at ?? new Date(0),
        flow_active: options.active ?? true,
        started_at: options.at ?? new Date(0),
      })),
    )
    .returningAll()
    .execute();
}

/** A list of `count` contacts with LinkedIn nicknames. */
export async function makeContacts(db: Database, teamId: number, count: number, name = 'Lead') {
  const list = await makeList(db, teamId, `${name} list`);
  return makeLeads(
    db,
    teamId,
    list.uuid,
    Array.from({ length: count }, (_, i) => ({
      first_name: `${name}${i}`,
      last_name: 'Test',
      linkedin: `${name.toLowerCase()}-${i}`,
    })),
  );
}
