import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';

/**
 * Tag uuids for tag names, creating the missing tags (names are unique per team, case-insensitively).
 * Returns lower-cased name → uuid. Used where clients send tag names (create/upsert, CSV import).
 */
export async function upsertTagsByName(
  db: Executor,
  teamId: number,
  names: string[],
): Promise<Map<string, string>> {
  const unique = [
    ...new Map(
      names
        .map((n) => n.trim())
        .filter(Boolean)
        .map((n) => [n.toLowerCase(), n]),
    ).values(),
  ];
  if (unique.length === 0) return new Map();
  const rows = await sql<{ uuid: string; name: string }>`
    with wanted (name) as (select unnest(${unique}::text[])),
    inserted as (
      insert into tags (team_id, uuid, name)
      select ${teamId}, ${sql.raw('leadflow_uuid_v7()')}, w.name from wanted w
      on conflict (team_id, lower(name)) do nothing
      returning uuid, name
    )
    select uuid, name from inserted
    union all
    select t.uuid, t.name from tags t join wanted w on lower(t.name) = lower(w.name) where t.team_id = ${teamId}
  `.execute(db);
  return new Map(rows.rows.map((row) => [row.name.toLowerCase(), row.uuid]));
}

/** The subset of `uuids` that are tags of the team (to reject foreign or unknown tag uuids). */
export async function selectExistingTagUuids(
  db: Executor,
  teamId: number,
  uuids: string[],
): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const rows = await db
    .selectFrom('tags')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', 'in', uuids)
    .execute();
  return new Set(rows.map((row) => row.uuid));
}
