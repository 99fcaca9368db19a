// Owner: pipeline-stages writes pipeline_stages.
import type { CreatedAt, Defaulted, UpdatedAt } from '../../db/column-types.js';

export type PipelineObject = 'lead' | 'company';
export type PipelineCategory = 'cold' | 'engaging' | 'positive' | 'negative';

export interface PipelineStagesTable {
  team_id: number;
  uuid: string;
  name: string;
  object: PipelineObject;
  type: Defaulted<string>;
  category: PipelineCategory;
  order: Defaulted<number>;
  is_default: Defaulted<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
