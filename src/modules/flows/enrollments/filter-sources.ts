// Contact sources that fill themselves. A contact source with a `mass_actions_filter` enrolls, while its
// flow is on, every contact of the team that matches the filter - existing ones when the flow starts,
// new or changed ones within a minute - never more than `active_limit` live at once.
//
// One flow_filter_sources row per such source of an active version (migration 0510) holds the fill's
// progress: first a full scan in contact uuid order (`scan_after`), then the contacts changed since the
// scan began (`changed_since`, a watermark the fill moves forward). Every step is one set-based INSERT
// through enrollContacts; the unique key makes a repeated or concurrent step harmless. A job runs every
// minute (and right away when a flow starts or gets a new version); with no such source there is no row
// and the job reads an empty table.

import { type SqlBool, sql } from 'kysely';
import { Type } from 'typebox';
import { crossTeam } from '../../../db/citus.js';
import { flowLeadCountDeltas, sumDeltas } from '../../../db/count-deltas.js';
import type { Database, Executor } from '../../../db/database.js';
import { enqueueJob, handleJob, jobType } from '../../../jobs/queue.js';
import { AppError } from '../../../lib/errors.js';
import { enrollContacts, enrollmentTarget } from '../../enrollments/enroll.js';
import { loadLeadFilterSpec } from '../../leads/leads.filter.js';
import { massActionWhere } from '../../leads/leads.mass-actions.js';
import type { StoredContactSource } from '../versions/tree-validation.js';
import { selectVersion } from '../versions/versions.repository.js';

export const fillContactSourcesJob = jobType(
  'flows.fillContactSources',
  Type.Object({
    teamId: Type.Optional(Type.Integer()),
    flowUuid: Type.Optional(Type.String({ format: 'uuid' })),
  }),
  { schedule: '* * * * *', maxAttempts: 3 },
);

/** Contacts enrolled per statement. */
export const FILL_BATCH = 5000;
/** A run stops starting new batches after this long; the next run goes on. */
const RUN_BUDGET_MS = 20_000;
const SCAN_START = '00000000-0000-0000-0000-000000000000';

/**
 * Makes the flow's rows match the self-filling sources of `version` (call when it becomes active). A
 * new or changed source starts over with a full scan; contacts already enrolled are skipped.
 */
export async function syncFilterSources(
  trx: Executor,
  teamId: number,
  flowUuid: string,
  version: { uuid: string; contact_sources: StoredContactSource[] },
): Promise<void> {
  await trx
    .deleteFrom('flow_filter_sources')
    .where('team_id', '=', teamId)
    .where('flow_uuid', '=', flowUuid)
    .execute();
  const filling = version.contact_sources.filter((source) => source.mass_actions_filter !== null);
  if (filling.length === 0) return;
  await trx
    .insertInto('flow_filter_sources')
    .values(
      filling.map((source) => ({
        team_id: teamId,
        flow_uuid: flowUuid,
        contact_source_id: source.id,
        flow_version_uuid: version.uuid,
        scan_after: SCAN_START,
        changed_since: sql<Date>`now() - interval '1 minute'`,
      })),
    )
    .execute();
}

/** When a flow starts: its sources scan every contact again, and a fill runs right away. */
export async function startFilling(trx: Executor, teamId: number, flowUuid: string): Promise<void> {
  const result = await trx
    .updateTable('flow_filter_sources')
    .set({
      scan_after: SCAN_START,
      changed_since: sql<Date>`now() - interval '1 minute'`,
      updated_at: new Date(),
    })
    .where('team_id', '=', teamId)
    .where('flow_uuid', '=', flowUuid)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) {
    await enqueueJob(
      trx,
      fillContactSourcesJob,
      { teamId, flowUuid },
      { jobKey: `flows.fill:${teamId}:${flowUuid}` },
    );
  }
}

type SourceRow = {
  team_id: number;
  flow_uuid: string;
  contact_source_id: number;
  flow_version_uuid: string;
  scan_after: string | null;
  changed_since: Date;
};

/**
 * One step of one source, in its own transaction: enrolls up to a batch of matching contacts and moves
 * the source's cursors. Returns how many were enrolled, or null when there was nothing to do.
 */
async function fillStep(db: Database, key: Pick<SourceRow, 'team_id' | 'flow_uuid' | 'contact_source_id'>) {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<SourceRow & { status: string; active_version: string }>`
      select s.*, f.status, f.flow_version_uuid as active_version from flow_filter_sources s
      join flows f on f.team_id = s.team_id and f.uuid = s.flow_uuid
      where s.team_id = ${key.team_id} and s.flow_uuid = ${key.flow_uuid}
        and s.contact_source_id = ${key.contact_source_id}
      for update of s skip locked
    `.execute(trx);
    const source = rows[0];
    if (source?.status !== 'on' || source.active_version !== source.flow_version_uuid) return null;
    const teamId = source.team_id;
    const version = await selectVersion(trx, teamId, source.flow_version_uuid);
    const definition = version?.contact_sources.find(
      (candidate) => candidate.id === source.contact_source_id,
    );
    if (!definition?.mass_actions_filter) return null;

    let room = FILL_BATCH;
    if (definition.active_limit !== null) {
      const [live] = await sumDeltas(trx, flowLeadCountDeltas, teamId, {
        where: sql<SqlBool>`d.flow_uuid = ${source.flow_uuid} and d.contact_source_id = ${source.contact_source_id}
          and d.status in ('in_progress', 'paused')`,
      });
      room = Math.min(room, definition.active_limit - (live?.count ?? 0));
      if (room <= 0) return null;
    }
    let where: ReturnType<typeof massActionWhere>;
    try {
      where = massActionWhere(await loadLeadFilterSpec(trx, teamId), definition.mass_actions_filter);
    } catch (error) {
      // A filter that no longer compiles (a custom field it names was deleted) enrolls nobody.
      if (error instanceof AppError) return null;
      throw error;
    }
    const target = await enrollmentTarget(trx, teamId, source.flow_uuid, source.contact_source_id);
    const notEnrolled = sql<SqlBool>`not exists (
      select 1 from flow_leads fl where fl.team_id = l.team_id and fl.flow_uuid = ${source.flow_uuid} and fl.lead_uuid = l.uuid
    )`;
    if (source.scan_after !== null) {
      const step = await enrollContacts(
        trx,
        teamId,
        target,
        'filter',
        sql`select l.uuid, l.updated_at, l.is_blacklisted from leads l
          where l.team_id = ${teamId} and l.uuid > ${source.scan_after} and ${where} and ${notEnrolled}
          order by l.uuid limit ${room}`,
      );
      // Fewer than asked: the scan reached the end, and changed contacts are looked at from now on.
      await trx
        .updateTable('flow_filter_sources')
        .set({ scan_after: step.picked < room ? null : step.lastUuid, updated_at: new Date() })
        .where('team_id', '=', teamId)
        .where('flow_uuid', '=', source.flow_uuid)
        .where('contact_source_id', '=', source.contact_source_id)
        .execute();
      return step.enrolled;
    }
    // Contacts changed since the watermark. Rows of transactions still open when this one started are
    // not visible yet; the next watermark stays behind the oldest such transaction (and a minute of
    // clock difference between app processes and the database), so they are seen next time.
    const step = await enrollContacts(
      trx,
      teamId,
      target,
      'filter',
      sql`select l.uuid, l.updated_at, l.is_blacklisted from leads l
        where l.team_id = ${teamId} and l.updated_at >= ${source.changed_since} and ${where} and ${notEnrolled}
        order by l.updated_at, l.uuid limit ${room}`,
    );
    const full = step.picked >= room;
    await sql`
      update flow_filter_sources set updated_at = now(), changed_since = ${
        full && step.lastUpdatedAt
          ? sql`${step.lastUpdatedAt}::timestamptz`
          : sql`greatest(changed_since, (
              select min(xact_start) from pg_stat_activity where xact_start is not null
            ) - interval '1 minute')`
      }
      where team_id = ${teamId} and flow_uuid = ${source.flow_uuid} and contact_source_id = ${source.contact_source_id}
    `.execute(trx);
    return step.enrolled;
  });
}

/**
 * Fills the self-filling sources of running flows (of one flow when `flowUuid` is given), each until it
 * has nothing more to add or the run's time budget is spent.
 */
export async function fillContactSources(
  db: Database,
  scope: { teamId?: number; flowUuid?: string } = {},
  budgetMs = RUN_BUDGET_MS,
): Promise<number> {
  const started = Date.now();
  const sources = await db
    .selectFrom('flow_filter_sources as s')
    .innerJoin('flows as f', (join) =>
      join.onRef('f.team_id', '=', 's.team_id').onRef('f.uuid', '=', 's.flow_uuid'),
    )
    .select(['s.team_id', 's.flow_uuid', 's.contact_source_id'])
    // Without a team scope this is the sweep over every team's sources.
    .modifyFront(crossTeam('filter-sources-sweep'))
    .where('f.status', '=', 'on')
    .$if(scope.teamId !== undefined, (query) => query.where('s.team_id', '=', scope.teamId!))
    .$if(scope.flowUuid !== undefined, (query) => query.where('s.flow_uuid', '=', scope.flowUuid!))
    .execute();
  let enrolled = 0;
  for (const source of sources) {
    for (;;) {
      const step = await fillStep(db, source);
      if (step === null) break;
      enrolled += step;
      if (Date.now() - started > budgetMs) return enrolled;
      // A step that enrolled nobody and left the scan finished has caught up.
      if (step === 0 && !(await scanning(db, source))) break;
    }
  }
  return enrolled;
}

async function scanning(db: Database, key: Pick<SourceRow, 'team_id' | 'flow_uuid' | 'contact_source_id'>) {
  const row = await db
    .selectFrom('flow_filter_sources')
    .select('scan_after')
    .where('team_id', '=', key.team_id)
    .where('flow_uuid', '=', key.flow_uuid)
    .where('contact_source_id', '=', key.contact_source_id)
    .executeTakeFirst();
  return row !== undefined && row.scan_after !== null;
}

export function fillContactSourcesHandler(deps: { db: Database }) {
  return handleJob(fillContactSourcesJob, async ({ teamId, flowUuid }, { log }) => {
    const enrolled = await fillContactSources(deps.db, { teamId, flowUuid });
    if (enrolled > 0)
      log.info({ enrolled, teamId, flowUuid }, 'self-filling contact sources enrolled contacts');
  });
}
