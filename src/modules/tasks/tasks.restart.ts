// PUT /flows/api/tasks/mass-restart-from-top (api-facts 1.18, sent by the hosted MCP server): the
// enrollments of the selected tasks of one flow start again from the top - the entry node of their
// contact source (or of `new_contact_source_id`) in the flow's current version - optionally with another
// sender. Their open tasks are canceled ('restarted'); the step counter keeps growing, so the tasks of
// the new run never collide with the old ones. Blacklisted contacts are left where they are.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { AppError, invalidField } from '../../lib/errors.js';
import { selectSenderProfile } from '../senders/senders.repository.js';

export type RestartInput = {
  flow_uuid: string;
  new_contact_source_id?: number;
  sender_profile_uuid?: string;
};

type Source = { id: number; after_id: number | null };

/** The flow's current version's contact sources, checking the flow, source and sender named. */
export async function restartTarget(db: Executor, teamId: number, input: RestartInput) {
  const flow = await db
    .selectFrom('flows as f')
    .innerJoin('flow_versions as v', (join) =>
      join.onRef('v.team_id', '=', 'f.team_id').onRef('v.uuid', '=', 'f.flow_version_uuid'),
    )
    .select(['f.uuid', 'f.status', 'v.uuid as version_uuid', 'v.contact_sources'])
    .where('f.team_id', '=', teamId)
    .where('f.uuid', '=', input.flow_uuid)
    .executeTakeFirst();
  if (!flow)
    throw invalidField('flow_uuid', 'flow_uuid does not name one of your flows with a saved version.');
  if (flow.status === 'archived')
    throw invalidField('flow_uuid', 'The flow is archived; unarchive it first.');
  const sources = (flow.contact_sources as Source[]).map((s) => ({ id: Number(s.id), after_id: s.after_id }));
  if (
    input.new_contact_source_id !== undefined &&
    !sources.some((s) => s.id === input.new_contact_source_id)
  ) {
    throw invalidField(
      'new_contact_source_id',
      `new_contact_source_id must be one of the flow's contact sources: ${sources.map((s) => s.id).join(', ')}.`,
    );
  }
  if (input.sender_profile_uuid !== undefined) {
    const sender = await selectSenderProfile(db, teamId, input.sender_profile_uuid);
    if (!sender) {
      throw invalidField(
        'sender_profile_uuid',
        'sender_profile_uuid does not name one of your sender profiles.',
      );
    }
  }
  return { versionUuid: flow.version_uuid, active: flow.status === 'on', sources };
}

/** Enrollments of the flow's tasks matching `where` (alias `t`), at most `cap`. */
export async function countRestartable(
  db: Executor,
  teamId: number,
  flowUuid: string,
  where: RawBuilder<SqlBool>,
) {
  const { rows } = await sql<{ n: number }>`
    select count(distinct t.flow_lead_uuid)::int as n from tasks t
    where t.team_id = ${teamId} and t.flow_uuid = ${flowUuid} and t.flow_lead_uuid is not null and ${where}
  `.execute(db);
  return rows[0]?.n ?? 0;
}

/** Restarts the enrollments; answers how many. Run it in a transaction. */
export async function restartFromTop(
  trx: Executor,
  teamId: number,
  input: RestartInput,
  target: Awaited<ReturnType<typeof restartTarget>>,
  where: RawBuilder<SqlBool>,
): Promise<number> {
  const sources = JSON.stringify(target.sources.filter((s) => s.after_id !== null));
  const { rows } = await sql<{ restarted: number }>`
    with picked as (
      select distinct t.flow_lead_uuid as uuid from tasks t
      where t.team_id = ${teamId} and t.flow_uuid = ${input.flow_uuid} and t.flow_lead_uuid is not null
        and ${where}
    ),
    restarted as (
      update flow_leads fl set flow_version_uuid = ${target.versionUuid}, contact_source_id = src.id,
        flow_node_id = src.after_id, step = fl.step + 1, status = 'in_progress', reason = null,
        finished_at = null, wait = null, next_run_at = now(), updated_at = now(),
        sender_profile_uuid = coalesce(${input.sender_profile_uuid ?? null}::uuid, fl.sender_profile_uuid),
        flow_active = ${target.active}, claim_token = fl.claim_token + 1, lease_until = null
      from jsonb_to_recordset(${sources}::jsonb) as src(id int, after_id int)
      where fl.team_id = ${teamId} and fl.flow_uuid = ${input.flow_uuid}
        and fl.uuid = any(array(select uuid from picked))
        and src.id = coalesce(${input.new_contact_source_id ?? null}::int, fl.contact_source_id)
        and not exists (
          select 1 from leads l where l.team_id = ${teamId} and l.uuid = fl.lead_uuid and l.is_blacklisted
        )
      returning fl.uuid
    ),
    canceled as (
      update tasks t set status = 'canceled', error_msg = coalesce(t.error_msg, 'restarted'), updated_at = now()
      where t.team_id = ${teamId} and t.flow_lead_uuid = any(array(select uuid from restarted))
        and t.status = 'in_progress'
      returning 1
    )
    select (select count(*) from restarted)::int as restarted, (select count(*) from canceled)::int as canceled
  `.execute(trx);
  return rows[0]?.restarted ?? 0;
}

/** Too many enrollments for one request: this operation has no background form yet. */
export function tooManyToRestart(count: number, limit: number): AppError {
  return new AppError(
    'validation_error',
    `The selection restarts ${count} enrollments; at most ${limit} restart in one request. Narrow the filter.`,
    { filter: [`selects more than ${limit} enrollments`] },
  );
}
