// Every team starts with stages for contacts and for companies in each category. New records land
// on the first `cold` stage of their object type.
import { sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { newId } from '../../lib/ids.js';
import type { PipelineCategory, PipelineObject } from './pipeline-stages.tables.js';

type StageSeed = { name: string; type: string; category: PipelineCategory };

export const DEFAULT_STAGES: Record<PipelineObject, StageSeed[]> = {
  lead: [
    { name: 'New', type: 'new', category: 'cold' },
    { name: 'Approaching', type: 'approaching', category: 'engaging' },
    { name: 'Engaging', type: 'engaging', category: 'engaging' },
    { name: 'Replied', type: 'replied', category: 'positive' },
    { name: 'Interested', type: 'custom', category: 'positive' },
    { name: 'Not interested', type: 'custom', category: 'negative' },
  ],
  company: [
    { name: 'New', type: 'new', category: 'cold' },
    { name: 'Engaging', type: 'engaging', category: 'engaging' },
    { name: 'Customer', type: 'custom', category: 'positive' },
    { name: 'Lost', type: 'custom', category: 'negative' },
  ],
};

export async function seedDefaultPipelineStages(trx: Executor, teamId: number): Promise<void> {
  const rows = (Object.entries(DEFAULT_STAGES) as [PipelineObject, StageSeed[]][]).flatMap(
    ([object, stages]) =>
      stages.map((stage, index) => ({
        team_id: teamId,
        uuid: newId(),
        name: stage.name,
        object,
        type: stage.type,
        category: stage.category,
        order: index + 1,
        is_default: true,
      })),
  );
  await trx.insertInto('pipeline_stages').values(rows).execute();
}

/** The stage new records of `object` start on: the first cold stage by order. */
export async function selectInitialStageUuid(
  db: Executor,
  teamId: number,
  object: PipelineObject,
): Promise<string> {
  const row = await db
    .selectFrom('pipeline_stages')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('object', '=', object)
    .orderBy(sql`case when category = 'cold' then 0 else 1 end`)
    .orderBy('order')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw new Error(`Team ${teamId} has no ${object} pipeline stages`);
  return row.uuid;
}
