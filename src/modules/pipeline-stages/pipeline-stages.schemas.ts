import { Type } from 'typebox';
import { anyPresent, DateTime, Envelope, ListQuery, Uuid, withExample } from '../../http/schemas.js';
import {
  PIPELINE_CATEGORIES,
  PIPELINE_OBJECTS,
  stageFilterFields,
  stageSort,
} from './pipeline-stages.repository.js';

const objectDescription = 'lead (contacts) or company';
const categoryDescription =
  'cold (not yet contacted), engaging (outreach in progress), positive (interest or converted), negative (rejected or lost)';

const PipelineObjectSchema = (description: string) => Type.Enum(PIPELINE_OBJECTS, { description });
const CategorySchema = Type.Enum(PIPELINE_CATEGORIES, { description: categoryDescription });

export const PipelineStage = Type.Object(
  {
    uuid: Uuid('Stage id; contacts and companies point to it with pipeline_stage_uuid'),
    team_id: Type.Integer({ description: 'Team the stage belongs to' }),
    name: Type.String({ description: 'Display name' }),
    object: PipelineObjectSchema(objectDescription),
    object_type: PipelineObjectSchema('Same as object (some clients read this name)'),
    type: Type.String({
      description: 'new, approaching, engaging, replied (stages every team starts with) or custom',
    }),
    category: CategorySchema,
    order: Type.Integer({ description: 'Position among the stages of the object, ascending' }),
    is_default: Type.Boolean({ description: 'Created with the team; default stages cannot be deleted' }),
    created_at: DateTime('When the stage was created'),
    updated_at: DateTime('When the stage last changed'),
  },
  { description: 'A pipeline stage of contacts or of companies' },
);

export const PipelineStagePage = Envelope(PipelineStage);
export const PipelineStagesQuery = ListQuery(stageSort, Object.keys(stageFilterFields));

const name = Type.String({ minLength: 1, maxLength: 255, description: 'Display name (trimmed)' });
const order = Type.Integer({
  minimum: 0,
  maximum: 1_000_000,
  description: 'Position among the object\u2019s stages (default: after the last one)',
});

export const CreateStageBody = Type.Object(
  {
    name,
    object: PipelineObjectSchema(objectDescription),
    category: CategorySchema,
    order: Type.Optional(order),
  },
  { additionalProperties: false },
);

export const UpdateStageBody = Type.Object(
  { name: Type.Optional(name), category: Type.Optional(CategorySchema), order: Type.Optional(order) },
  {
    additionalProperties: false,
    description: 'Fields to change; give at least one. The object of a stage cannot change.',
    ...anyPresent(
      ['name', 'category', 'order'],
      'is required unless category or order is given: give at least one to change',
    ),
  },
);

withExample(CreateStageBody, { name: 'Demo booked', object: 'lead', category: 'positive' });
withExample(UpdateStageBody, { name: 'Meeting booked', order: 3 });
