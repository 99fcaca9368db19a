// Checks that the lists, tags, pipeline stages and data source a company request names belong to the team
// (one query per kind for a whole request), turning tag names into tag uuids. CSV imports, which write
// companies, check their data source here too.
import type { Executor } from '../../db/database.js';
import { invalidField } from '../../lib/errors.js';
import { selectExistingTagUuids, upsertTagsByName } from '../tags/tags.repository.js';
import { splitTagRefs } from './companies.input.js';

/** Throws a 422 naming `path` unless every uuid is a list of the team. */
export async function requireTeamLists(db: Executor, teamId: number, uuids: string[], path: string) {
  if (uuids.length === 0) return;
  const rows = await db
    .selectFrom('lists')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', 'in', uuids)
    .execute();
  const found = new Set(rows.map((row) => row.uuid));
  const missing = uuids.filter((uuid) => !found.has(uuid));
  if (missing.length > 0) {
    throw invalidField(path, `${path} must name lists of your team; not found: ${missing.join(', ')}.`);
  }
}

/**
 * Tag references (uuids or names) of several items → tag uuids per item. Names are created when
 * missing; an unknown or foreign uuid is a 422 naming the item's path.
 */
export async function resolveTagRefs(
  db: Executor,
  teamId: number,
  refsPerItem: string[][],
  pathOf: (index: number) => string,
): Promise<string[][]> {
  const split = refsPerItem.map(splitTagRefs);
  const allUuids = [...new Set(split.flatMap((item) => item.uuids))];
  const allNames = split.flatMap((item) => item.names);
  const [existing, byName] = await Promise.all([
    selectExistingTagUuids(db, teamId, allUuids),
    allNames.length > 0 ? upsertTagsByName(db, teamId, allNames) : Promise.resolve(new Map<string, string>()),
  ]);
  return split.map((item, index) => {
    const unknown = item.uuids.filter((uuid) => !existing.has(uuid));
    if (unknown.length > 0) {
      const path = pathOf(index);
      throw invalidField(
        path,
        `${path} holds tag UUIDs that are not tags of your team: ${unknown.join(', ')} (tag names are created).`,
      );
    }
    const named = item.names.map((name) => byName.get(name.trim().toLowerCase())).filter(Boolean) as string[];
    return [...new Set([...item.uuids, ...named])];
  });
}

/** Throws a 422 naming the item's path unless each uuid is a company pipeline stage of the team. */
export async function requireCompanyStages(
  db: Executor,
  teamId: number,
  uuids: (string | null | undefined)[],
  pathOf: (index: number) => string,
) {
  const wanted = [...new Set(uuids.filter((uuid): uuid is string => Boolean(uuid)))];
  if (wanted.length === 0) return;
  const rows = await db
    .selectFrom('pipeline_stages')
    .select(['uuid', 'object'])
    .where('team_id', '=', teamId)
    .where('uuid', 'in', wanted)
    .execute();
  const objectOf = new Map(rows.map((row) => [row.uuid, row.object]));
  uuids.forEach((uuid, index) => {
    if (!uuid) return;
    const object = objectOf.get(uuid);
    if (object === 'company') return;
    const path = pathOf(index);
    throw invalidField(
      path,
      object === 'lead'
        ? `${path} is a contact pipeline stage; give a company stage (GET /leads/api/pipeline-stages?filter[object]=company).`
        : `${path} is not a pipeline stage of your team.`,
    );
  });
}

/** Throws a 422 naming `field` unless `uuid` (when given) is a data source of the team. */
export async function requireDataSource(
  db: Executor,
  teamId: number,
  uuid: string | null | undefined,
  field = 'data_source_uuid',
): Promise<void> {
  if (uuid === null || uuid === undefined) return;
  const row = await db
    .selectFrom('data_sources')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid.toLowerCase())
    .executeTakeFirst();
  if (!row) throw invalidField(field, `${field} does not name one of your data sources (${uuid}).`);
}
