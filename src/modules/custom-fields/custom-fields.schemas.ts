import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import {
  CUSTOM_FIELD_OBJECTS,
  CUSTOM_FIELD_TYPES,
  customFieldFilterFields,
  customFieldSort,
} from './custom-fields.repository.js';

const ObjectSchema = Type.Enum(CUSTOM_FIELD_OBJECTS, { description: 'lead (contacts) or company' });
const TypeSchema = Type.Enum(CUSTOM_FIELD_TYPES, {
  description: 'Value type: string, number, boolean or date (ISO 8601); values are converted to it',
});

export const CustomField = Type.Object(
  {
    uuid: Uuid('Field id; records key their values by it'),
    team_id: Type.Integer({ description: 'Team the field belongs to' }),
    user_id: Nullable(Type.Integer({ description: 'User who created the field' })),
    name: Type.String({ description: 'Unique per team and object type, case-insensitively' }),
    object: ObjectSchema,
    type: TypeSchema,
    order: Type.Integer({ description: 'Display position among the object\u2019s fields, ascending' }),
    created_at: DateTime('When the field was created'),
    updated_at: DateTime('When the field was last renamed or reordered'),
  },
  { description: 'A custom field definition (at most 100 per object type)' },
);

export const CustomFieldPage = Envelope(CustomField);
export const CustomFieldsQuery = ListQuery(customFieldSort, Object.keys(customFieldFilterFields));

const name = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
  description:
    'must start with a letter or an underscore and contain only letters (a-z, A-Z), digits and underscores',
});
const order = Type.Integer({
  minimum: 0,
  maximum: 1_000_000,
  description: 'Display position (default: after the object\u2019s last field)',
});

export const CreateCustomFieldBody = Type.Object(
  {
    name,
    object: ObjectSchema,
    type: Type.Optional(TypeSchema),
    order: Type.Optional(order),
  },
  { additionalProperties: false },
);

export const UpdateCustomFieldBody = Type.Object(
  {
    name: Type.Optional(name),
    order: Type.Optional(order),
    type: Type.Optional(TypeSchema),
    object: Type.Optional(ObjectSchema),
  },
  {
    additionalProperties: false,
    description:
      'Change name and/or order. type and object cannot change: sending a different value is a 422 (the same value is accepted).',
  },
);

const ValueSchema = Nullable(
  Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Boolean()], {
    description: 'The value, converted to the field\u2019s type; null or an empty string clears it',
  }),
);

const valueTarget = {
  object_type: ObjectSchema,
  object_uuid: Uuid('The contact or company'),
  value: ValueSchema,
};

export const SetCustomFieldValueBody = Type.Object(
  { custom_field_uuid: Uuid('The custom field'), ...valueTarget },
  { additionalProperties: false },
);
export const SetCustomFieldValueAliasBody = Type.Object(valueTarget, { additionalProperties: false });

export const CustomFieldValue = Type.Object(
  {
    uuid: Uuid(
      'Stable id of this field\u2019s value on this record: a UUID v5 of the field and record uuids (values are stored on the record, not as rows)',
    ),
    team_id: Type.Integer({ description: 'Team of the record' }),
    custom_field_uuid: Uuid('The custom field'),
    object_type: ObjectSchema,
    object_uuid: Uuid('The contact or company'),
    value: ValueSchema,
    created_at: DateTime('Time of this write (values keep no history)'),
    updated_at: DateTime('Time of this write; the record\u2019s updated_at is bumped to it'),
  },
  { description: 'A custom field value on a contact or company' },
);

withExample(CreateCustomFieldBody, { name: 'industry', object: 'lead', type: 'string' });
withExample(UpdateCustomFieldBody, { name: 'sector', order: 2 });
withExample(SetCustomFieldValueBody, {
  custom_field_uuid: '0190f000-0000-7000-8000-000000000001',
  object_type: 'lead',
  object_uuid: '0190f000-0000-7000-8000-000000000002',
  value: 'Software',
});
withExample(SetCustomFieldValueAliasBody, {
  object_type: 'lead',
  object_uuid: '0190f000-0000-7000-8000-000000000002',
  value: 'Software',
});
