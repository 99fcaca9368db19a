import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import { ACTIVITY_OBJECT_TYPES, activityFilterFields, activitySort } from './activities.repository.js';
import { SYSTEM_ACTIVITY_TYPES } from './activity-types.js';

const ObjectType = Type.Enum(ACTIVITY_OBJECT_TYPES, {
  description: 'What the activity is about: lead (a contact) or company',
});

const systemTypes = Object.entries(SYSTEM_ACTIVITY_TYPES)
  .map(([type, text]) => `${type} (${text})`)
  .join('; ');

export const Activity = Type.Object(
  {
    uuid: Uuid('Activity id'),
    team_id: Type.Integer({ description: 'Team' }),
    object_type: ObjectType,
    object_uuid: Uuid('The contact or company'),
    lead_uuid: Nullable(Uuid('The contact (object_type lead)')),
    company_uuid: Nullable(
      Uuid('The company: the object itself, or the contact\u2019s company when the activity was recorded'),
    ),
    type: Type.String({
      description: `What happened. Recorded by Leadflow: ${systemTypes}. Users add any other`,
    }),
    payload: Type.Record(Type.String(), Type.Unknown(), { description: 'Details of the activity' }),
    user_id: Nullable(
      Type.Integer({ description: 'Who recorded it through the API; null when Leadflow did' }),
    ),
    created_at: DateTime('When it happened'),
  },
  { description: 'One entry of a contact\u2019s or company\u2019s timeline' },
);

export const ActivityPage = Envelope(Activity);
export const ActivitiesQuery = ListQuery(activitySort, Object.keys(activityFilterFields));

export const CreateActivityBody = Type.Object(
  {
    object_uuid: Uuid('The contact or company (one of your team\u2019s)'),
    object_type: ObjectType,
    type: Type.String({
      pattern: '^[A-Za-z][A-Za-z0-9_.-]{0,63}$',
      description:
        'What happened, e.g. call, meeting, demo_booked (a letter, then letters, digits, _ . -; 64 at most)',
    }),
    payload: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Details, e.g. {"duration_minutes": 15, "outcome": "interested"}',
      }),
    ),
    occurred_at: Type.Optional(DateTime('When it happened (default now); becomes created_at')),
  },
  { additionalProperties: false },
);

withExample(CreateActivityBody, {
  object_uuid: '0190f000-0000-7000-8000-000000000001',
  object_type: 'lead',
  type: 'call',
  payload: { duration_minutes: 15, outcome: 'interested' },
});
