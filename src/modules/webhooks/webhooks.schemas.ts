import { Type } from 'typebox';
import {
  DateOrDateTime,
  DateTime,
  Envelope,
  ListQuery,
  Nullable,
  Uuid,
  withExample,
} from '../../http/schemas.js';
import { EVENT_NAMES } from '../events/events.catalog.js';
import { EventPayload } from '../events/events.schemas.js';
import { DELIVERY_STATUSES, deliveryFilterFields, deliverySort } from './deliveries.repository.js';
import { webhookFilterFields, webhookSort } from './webhooks.repository.js';

const catalog = EVENT_NAMES.join(', ');

const EventField = Type.Enum(EVENT_NAMES, { description: `The one event this webhook receives: ${catalog}` });
const MethodField = Type.Enum(['POST', 'GET', 'PUT', 'PATCH', 'DELETE'], {
  description: 'HTTP method of deliveries (default POST); the signed JSON body is sent with every method',
});
const StatusField = Type.Enum(['on', 'off'], {
  description: 'on: deliveries are sent; off: nothing is sent',
});
const TargetUrlField = Type.String({
  minLength: 1,
  maxLength: 2048,
  format: 'uri',
  // http or https, no user:password@ (verify the signature instead).
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@\\s]+(?:[/?#]\\S*)?$',
  description:
    'Where deliveries go: an absolute http or https URL without credentials; private, loopback and ' +
    'link-local addresses are refused',
});
const FiltersObject = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'Contacts that trigger the webhook: contact filter keys (list_uuid, tags, pipeline_stage_uuid, ' +
    'custom_fields, q... as in POST /leads/api/leads/search), and/or the flow-membership form ' +
    '{"jsonLogic": {"data": {"flows": [{"flow_uuid": "..."}]}, "logic": {...}}}. Empty or null: every contact.',
});
const FiltersField = Nullable(FiltersObject);

/** What a request may send: the object, or (as the hosted service's MCP server does) that object as a JSON string. */
const FiltersInput = Nullable(
  Type.Union([
    FiltersObject,
    Type.String({
      maxLength: 100_000,
      format: 'json-object',
      description: 'The same filters object as a JSON string ("" or "null": every contact)',
    }),
  ]),
);

const webhookFields = {
  uuid: Uuid(),
  team_id: Type.Integer({ description: 'Team the webhook belongs to' }),
  user_id: Nullable(Type.Integer({ description: 'User who created it' })),
  name: Type.String({ description: 'Name shown in lists' }),
  event: Type.String({ description: `The event it receives: ${catalog}` }),
  request_method: MethodField,
  target_url: Type.String({ description: 'Where deliveries go' }),
  filters: FiltersField,
  status: StatusField,
  disabled_reason: Nullable(
    Type.String({ description: 'Why the service switched the webhook off (null when it did not)' }),
  ),
  last_error: Nullable(Type.String({ description: 'The most recent delivery error' })),
  last_error_at: Nullable(DateTime('When that error happened')),
  last_success_at: Nullable(DateTime('When a delivery last succeeded')),
  previous_secret_expires_at: Nullable(
    DateTime(
      'After a secret rotation: until then deliveries also carry a signature made with the previous secret',
    ),
  ),
  created_at: DateTime(),
  updated_at: DateTime(),
};

export const Webhook = Type.Object(webhookFields);
export const WebhookPage = Envelope(Webhook);
export const WebhooksQuery = ListQuery(webhookSort, Object.keys(webhookFilterFields));

export const CreatedWebhook = Type.Object({
  ...webhookFields,
  secret: Type.String({
    description:
      'Signing secret (Standard Webhooks, whsec_ + base64). Shown only in this response: store it to ' +
      'verify the webhook-signature header of deliveries',
  }),
  data: Type.Object(webhookFields, {
    description: 'The same webhook again, for clients that read the created record from `data`',
  }),
});

export const RotatedWebhook = Type.Object({
  ...webhookFields,
  secret: Type.String({
    description: 'The new signing secret (whsec_ + base64). Shown only in this response',
  }),
});

export const RotateSecretBody = Type.Object(
  {
    previous_secret_ttl_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 7 * 86_400,
        description:
          'How long deliveries keep a second signature made with the previous secret (default 86400, one ' +
          'day; at most 7 days; 0 drops the previous secret at once, e.g. after a leak)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreateWebhookBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    event: EventField,
    target_url: TargetUrlField,
    request_method: Type.Optional(MethodField),
    filters: Type.Optional(FiltersInput),
    status: Type.Optional(StatusField),
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    event: Type.Optional(EventField),
    target_url: Type.Optional(TargetUrlField),
    request_method: Type.Optional(MethodField),
    filters: Type.Optional(FiltersInput),
    status: Type.Optional(StatusField),
  },
  { additionalProperties: false },
);

export const TestWebhookBody = Type.Object(
  {
    uuid: Type.Optional(Uuid('A saved webhook: its secret signs the test (otherwise a one-off secret does)')),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    event: EventField,
    target_url: TargetUrlField,
    request_method: Type.Optional(MethodField),
    filters: Type.Optional(FiltersInput),
    status: Type.Optional(StatusField),
    lead_uuid: Type.Optional(Uuid('Build the sample from this contact (and its company)')),
  },
  { additionalProperties: false },
);

export const TestWebhookResult = Type.Object({
  status_code: Nullable(Type.Integer({ description: 'HTTP status of the target (null: no response)' })),
  headers: Type.Record(Type.String(), Type.String(), { description: 'Response headers' }),
  body: Type.String({ description: 'Response body, cut at 64 KB' }),
  body_truncated: Type.Boolean({ description: 'The body was longer than 64 KB' }),
  duration_ms: Type.Integer({ description: 'Time from sending to the end of the response' }),
  error: Nullable(Type.String({ description: 'Why no 2xx came back (timeout, connection error, status)' })),
  payload: EventPayload,
});

export const Delivery = Type.Object({
  uuid: Uuid('Delivery: one event to one webhook, over all its attempts'),
  webhook_uuid: Uuid(),
  event_uuid: Uuid('The event (also the webhook-id header receivers deduplicate on)'),
  event_name: Type.String({ description: 'The event name' }),
  status: Type.Enum(DELIVERY_STATUSES, {
    description:
      'pending: first attempt queued; retrying: an attempt failed, next_retry_at is set; succeeded: a 2xx ' +
      'came back; failed: the retry schedule ran out; canceled: the webhook was switched off',
  }),
  attempt: Type.Integer({ description: 'Attempts made so far' }),
  status_code: Nullable(Type.Integer({ description: 'HTTP status of the last attempt' })),
  duration_ms: Nullable(Type.Integer({ description: 'Duration of the last attempt' })),
  error: Nullable(Type.String({ description: 'Error of the last attempt' })),
  created_at: DateTime('When the event was matched to the webhook'),
  last_attempt_at: Nullable(DateTime('When the last attempt was made')),
  next_retry_at: Nullable(DateTime('When the next attempt is due (null: none scheduled)')),
});
export const DeliveryPage = Envelope(Delivery);
export const DeliveriesQuery = ListQuery(deliverySort, Object.keys(deliveryFilterFields));
export const DeliveryParams = Type.Object({ uuid: Uuid(), deliveryUuid: Uuid() });

export const EventCatalog = Type.Object({
  data: Type.Array(
    Type.Object({
      name: Type.String({ description: 'Event name, the value of a webhook\u2019s `event`' }),
      description: Type.String({ description: 'When it is sent' }),
      about_contact: Type.Boolean({ description: 'Carries a contact, so contact filters apply' }),
      example: EventPayload,
    }),
  ),
});

export const WEBHOOK_METRICS = ['total', ...DELIVERY_STATUSES] as const;

export const WebhookMetricsBody = Type.Object(
  {
    uuids: Type.Array(Uuid(), {
      minItems: 1,
      maxItems: 1000,
      description: 'Webhooks to count deliveries of',
    }),
    metrics: Type.Optional(
      Type.Array(Type.Enum(WEBHOOK_METRICS), {
        maxItems: WEBHOOK_METRICS.length,
        description:
          'Which counts to answer (default all): total, and one per delivery status (pending, retrying, ' +
          'succeeded, failed, canceled)',
      }),
    ),
    period_from: Type.Optional(DateOrDateTime('Deliveries created from then on (default: no start)')),
    period_to: Type.Optional(
      DateOrDateTime('Deliveries created until then (a bare date includes the day; default: no end)'),
    ),
  },
  { additionalProperties: false },
);

export const WebhookMetrics = Type.Record(
  Type.String({ format: 'uuid' }),
  Type.Record(Type.String(), Type.Integer()),
  {
    description:
      'Per webhook UUID, the requested counts of its deliveries made in the period, by status (webhooks of ' +
      'other teams or unknown UUIDs are left out)',
  },
);

withExample(WebhookMetricsBody, {
  uuids: ['0190f000-0000-7000-8000-000000000001'],
  metrics: ['total', 'succeeded', 'failed'],
  period_from: '2026-03-01',
  period_to: '2026-03-31',
});
withExample(RotateSecretBody, { previous_secret_ttl_seconds: 3600 });
withExample(CreateWebhookBody, {
  name: 'Replies to CRM',
  event: 'contact_replied_email',
  target_url: 'https://hooks.example.com/leadflow',
  request_method: 'POST',
  filters: { list_uuid: '0190f000-0000-7000-8000-000000000001' },
  status: 'on',
});
withExample(UpdateWebhookBody, { status: 'off' });
withExample(TestWebhookBody, {
  event: 'contact_replied_email',
  target_url: 'https://hooks.example.com/leadflow',
  request_method: 'POST',
});
