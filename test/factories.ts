// Insert-based factories for tests that need records of other modules without going through their API.
import type { Database } from '../src/db/database.js';
import { newId } from '../src/lib/ids.js';
import { defaultSchedule } from '../src/lib/schedule.js';
import { selectInitialStageUuid } from '../src/modules/pipeline-stages/pipeline-stages.defaults.js';

export async function makeList(db: Database, teamId: number, name = 'List') {
  return db
    .insertInto('lists')
    .values({ team_id: teamId, uuid: newId(), name })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A data source of the team (a CSV record that never runs), for records that name where they came from. */
export async function makeDataSource(db: Database, teamId: number) {
  const list = await makeList(db, teamId, 'Source list');
  return db
    .insertInto('data_sources')
    .values({
      team_id: teamId,
      uuid: newId(),
      list_uuid: list.uuid,
      type: 'csv_leads',
      payload: JSON.stringify({ url: null }),
      errors: JSON.stringify([]),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function makeLeads(
  db: Database,
  teamId: number,
  listUuid: string,
  leads: Array<
    Partial<{
      first_name: string;
      last_name: string;
      company_name: string;
      work_email: string;
      linkedin: string;
    }>
  >,
) {
  const stage = await selectInitialStageUuid(db, teamId, 'lead');
  return db
    .insertInto('leads')
    .values(
      leads.map((lead) => ({
        team_id: teamId,
        uuid: newId(),
        list_uuid: listUuid,
        pipeline_stage_uuid: stage,
        name: [lead.first_name, lead.last_name].filter(Boolean).join(' ') || null,
        custom_fields: '{}',
        ...lead,
      })),
    )
    .returningAll()
    .execute();
}

/** A sender profile row (the senders API owns them; tests of other areas only need one to exist). */
export async function makeSenderProfile(
  db: Database,
  teamId: number,
  sender: { first_name: string; last_name?: string | null; status?: 'enabled' | 'disabled' },
) {
  return db
    .insertInto('sender_profiles')
    .values({ team_id: teamId, uuid: newId(), schedule: JSON.stringify(defaultSchedule()), ...sender })
    .returningAll()
    .executeTakeFirstOrThrow();
}
