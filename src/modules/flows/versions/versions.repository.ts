import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { FlowVersionsTable } from '../flows.tables.js';
import type { StoredContactSource, StoredNode, Tree } from './tree-validation.js';

export type VersionRow = Omit<Selectable<FlowVersionsTable>, 'nodes' | 'contact_sources'> & {
  nodes: StoredNode[];
  contact_sources: StoredContactSource[];
};

export async function insertVersion(
  db: Executor,
  version: { team_id: number; uuid: string; flow_uuid: string } & Tree,
): Promise<VersionRow> {
  return (await db
    .insertInto('flow_versions')
    .values({
      team_id: version.team_id,
      uuid: version.uuid,
      flow_uuid: version.flow_uuid,
      nodes: JSON.stringify(version.nodes),
      contact_sources: JSON.stringify(version.contact_sources),
      first_common_node_id: version.first_common_node_id,
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as VersionRow;
}

export async function selectVersion(db: Executor, teamId: number, uuid: string) {
  return (await db
    .selectFrom('flow_versions')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst()) as VersionRow | undefined;
}

export async function selectVersionsOfFlow(db: Executor, teamId: number, flowUuid: string) {
  return (await db
    .selectFrom('flow_versions')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('flow_uuid', '=', flowUuid)
    .orderBy('created_at')
    .orderBy('uuid')
    .execute()) as VersionRow[];
}

export async function deleteVersion(db: Executor, teamId: number, uuid: string): Promise<void> {
  await db.deleteFrom('flow_versions').where('team_id', '=', teamId).where('uuid', '=', uuid).execute();
}

/** What flow warnings need of some versions: their node types and the senders their sources list. */
export async function selectVersionOutlines(db: Executor, teamId: number, uuids: string[]) {
  if (uuids.length === 0) return [];
  const { rows } = await sql<{ uuid: string; types: string[]; senders: string[] }>`
    select v.uuid,
      coalesce((select array_agg(distinct n ->> 'type') from jsonb_array_elements(v.nodes) n), '{}') as types,
      coalesce((
        select array_agg(distinct s) from jsonb_array_elements(v.contact_sources) c,
          jsonb_array_elements_text(c -> 'sender_profiles') s
      ), '{}') as senders
    from flow_versions v
    where v.team_id = ${teamId} and v.uuid = any(${uuids}::uuid[])
  `.execute(db);
  return rows;
}
