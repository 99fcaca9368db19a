// What a new active version does to the flow's live enrollments (model rule 7): one waiting at a node
// id the new version still has, with the same type, continues there on the new version; any other
// ends as canceled with reason node_removed (and its pending tasks are canceled), so none is stranded
// on a node that no longer exists and none repeats a step. Both are one statement, whatever the count.
// Enrollments parked because no contact source named an enabled sender run again at once: the new
// version's sources may name one (if not, the engine parks them again with the same reason).
import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { endEnrollments } from '../../enrollments/enrollment-signals.js';
import type { StoredNode } from './tree-validation.js';

export async function switchEnrollments(
  trx: Executor,
  teamId: number,
  flowUuid: string,
  version: { uuid: string; nodes: StoredNode[] },
): Promise<{ moved: number; ended: number }> {
  const ids = version.nodes.map((node) => node.id);
  const types = version.nodes.map((node) => node.type);
  // The (old version, node) pairs whose node keeps its id and type: found in the old versions' trees.
  const moved = await sql`
    with kept (id, type) as (select * from unnest(${ids}::int[], ${types}::text[])),
    stays as (
      select v.uuid as version_uuid, k.id as node_id
      from flow_versions v
      cross join lateral jsonb_array_elements(v.nodes) n
      join kept k on k.id = (n ->> 'id')::int and k.type = n ->> 'type'
      where v.team_id = ${teamId} and v.flow_uuid = ${flowUuid} and v.uuid <> ${version.uuid}
    )
    update flow_leads fl
    set flow_version_uuid = ${version.uuid}, claim_token = fl.claim_token + 1, lease_until = null, updated_at = now()
    from stays s
    where fl.team_id = ${teamId} and fl.flow_uuid = ${flowUuid} and fl.status in ('in_progress', 'paused')
      and fl.flow_version_uuid = s.version_uuid and fl.flow_node_id = s.node_id
  `.execute(trx);
  const ended = await endEnrollments(
    trx,
    teamId,
    { where: sql<SqlBool>`fl.flow_uuid = ${flowUuid} and fl.flow_version_uuid <> ${version.uuid}` },
    'canceled',
    'node_removed',
  );
  await sql`
    update flow_leads fl
    set status = 'in_progress', reason = null, next_run_at = now(), claim_token = fl.claim_token + 1,
      lease_until = null, updated_at = now()
    where fl.team_id = ${teamId} and fl.flow_uuid = ${flowUuid} and fl.status = 'paused'
      and fl.sender_profile_uuid is null and fl.reason in ('no_sender', 'sender_disabled')
  `.execute(trx);
  return { moved: Number(moved.numAffectedRows ?? 0), ended };
}
