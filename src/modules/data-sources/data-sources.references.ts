// Records that name the data source they came from (companies, import records) name one of the team's.
import type { Executor } from '../../db/database.js';
import { invalidField } from '../../lib/errors.js';

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
