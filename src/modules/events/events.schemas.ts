// The webhook payload of every event, as TypeBox schemas: they document the payloads in the OpenAPI
// document (catalog and test endpoints) and type the objects emitters pass in.
import { type Static, type TSchema, Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../http/schemas.js';
import { EVENT_CATALOG, EVENT_NAMES, type EventName, type EventObjectKey } from './events.catalog.js';

// Nullable scalars as JSON Schema type arrays (OpenAPI 3.1) rather than anyOf: the twelve payload
// schemas stay compact and readable in the document.
const str = (description: string) => Type.Unsafe<string | null>({ type: ['string', 'null'], description });
const int = (description: string) => Type.Unsafe<number | null>({ type: ['integer', 'null'], description });
const time = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time', description });
const uuidOrNull = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uuid', description });

export const ContactSnapshot = Type.Object(
  {
    uuid: Uuid('Contact UUID'),
    name: str('Full name'),
    first_name: str('First name'),
    last_name: str('Last name'),
    company_name: str('Company name as written on the contact'),
    company_uuid: uuidOrNull('Linked company (see `account`)'),
    position: str('Job title'),
    headline: str('LinkedIn headline'),
    about: str('LinkedIn about text'),
    avatar_url: str('Profile picture URL'),
    linkedin: str('LinkedIn public nickname'),
    linkedin_url: str('LinkedIn profile URL'),
    ln_id: str('LinkedIn member URN id (ACoAA...)'),
    ln_member_id: int('LinkedIn numeric member id'),
    sn_id: str('Sales Navigator id (ACwAA...)'),
    sales_navigator_url: str('Sales Navigator profile URL'),
    work_email: str('Work e-mail'),
    personal_email: str('Personal e-mail'),
    work_phone_number: str('Work phone'),
    personal_phone_number: str('Personal phone'),
    raw_address: str('Free-text location'),
    location: Type.Unknown({ description: 'Structured location as stored on the contact (or null)' }),
    connections_number: int('LinkedIn connections'),
    followers_number: int('LinkedIn followers'),
    list_uuid: Uuid('List the contact belongs to'),
    list_name: str('Name of that list'),
    pipeline_stage_uuid: uuidOrNull('Pipeline stage'),
    pipeline_stage_name: str('Name of that stage, e.g. "Replied"'),
    tags: Type.Array(Type.String(), { description: 'Tag names' }),
    custom_fields: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Custom field values keyed by custom field name',
    }),
    status: Type.String({ description: 'Record status: ok, failed_validation, no_contact_data, duplicate' }),
    linkedin_status: Type.String({ description: 'Enrichment state of the LinkedIn data' }),
    email_status: str('State of the e-mail address'),
    created_at: DateTime('When the contact was created'),
    updated_at: DateTime('When the contact last changed'),
  },
  { description: 'The contact as it was when the event occurred' },
);

export const AccountSnapshot = Type.Object(
  {
    uuid: Uuid('Company UUID'),
    name: str('Company name'),
    domain: str('Website domain, e.g. acme.com'),
    website: str('Website URL'),
    industry: str('Industry'),
    employees_range: str('Employee count range, e.g. 51-200'),
    size: str('Same as employees_range (the hosted service\u2019s name)'),
    linkedin: str('LinkedIn page slug'),
    linkedin_url: str('LinkedIn company page URL'),
    ln_id: int('LinkedIn numeric company id'),
    phone: str('Phone'),
    hq_raw_address: str('Headquarters address'),
    logo_url: str('Logo URL'),
    about: str('Description'),
    pipeline_stage_uuid: uuidOrNull('Company pipeline stage'),
    pipeline_stage_name: str('Name of that stage'),
    tags: Type.Array(Type.String(), { description: 'Tag names' }),
    custom_fields: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Custom field values keyed by custom field name',
    }),
    status: Type.String({ description: 'Record status' }),
    linkedin_status: Type.String({ description: 'Enrichment state of the LinkedIn data' }),
    created_at: DateTime('When the company was created'),
    updated_at: DateTime('When the company last changed'),
  },
  { description: 'The company (the contact\u2019s company, or the exported company)' },
);

export const SenderProfileObject = Type.Object(
  {
    uuid: Uuid('Sender profile UUID'),
    first_name: str('First name'),
    last_name: str('Last name'),
    label: str('Label'),
    assignee_user_id: int('User the profile is assigned to'),
    team_id: Type.Integer({ description: 'Team' }),
  },
  { description: 'The sender profile that acted or is concerned' },
);

export const AutomationObject = Type.Object(
  {
    uuid: Uuid('Flow UUID'),
    name: Type.String({ description: 'Flow name' }),
    status: Type.String({ description: 'on, off, draft or archived' }),
    priority: int('Flow priority (higher runs first)'),
  },
  { description: 'The automation (flow) the event happened in' },
);

export const LinkedinMessageObject = Type.Object(
  {
    uuid: Uuid('Message UUID'),
    subject: str('Subject (InMail)'),
    text: str('Message text'),
    type: Type.String({ description: 'inbox (received) or outbox (sent)' }),
    status: Type.String({ description: 'new, in_progress, done or failed' }),
    linkedin_type: str('connection_note, message, InMail or the value LinkedIn reports'),
    sent_at: time('When it was sent'),
    read_at: time('When it was read'),
  },
  { description: 'The LinkedIn message or InMail' },
);

export const EmailObject = Type.Object(
  {
    uuid: Uuid('E-mail UUID'),
    subject: str('Subject'),
    body: str('HTML body'),
    type: Type.String({ description: 'inbox (received) or outbox (sent)' }),
    status: Type.String({ description: 'E-mail status' }),
    from_name: str('Sender name'),
    from_email: str('Sender address'),
    to_name: str('Recipient name'),
    to_email: str('Recipient address'),
    sent_at: time('When it was sent'),
  },
  { description: 'The e-mail' },
);

export const LinkedinConnectionRequestObject = Type.Object(
  {
    ln_id: str('LinkedIn member URN id of the contact'),
    nickname: str('LinkedIn nickname of the contact'),
    sent_at: time('When the request was sent'),
  },
  { description: 'The connection request that was sent' },
);

export const LinkedinConnectionObject = Type.Object(
  {
    full_name: str('Name of the new connection'),
    nickname: str('LinkedIn nickname of the new connection'),
    connected_at: time('When the request was accepted'),
  },
  { description: 'The new LinkedIn connection' },
);

export const IssueObject = Type.Object(
  {
    type: Type.String({ description: 'What is wrong, e.g. login_issue' }),
    message: str('Human-readable detail'),
  },
  { description: 'What needs attention on the sender profile' },
);

const OBJECT_SCHEMAS: Record<EventObjectKey, TSchema> = {
  linkedin_message: LinkedinMessageObject,
  email: EmailObject,
  linkedin_connection_request: LinkedinConnectionRequestObject,
  linkedin_connection: LinkedinConnectionObject,
  issue: IssueObject,
};

/** Objects an emitter passes in besides the contact/company, which are read from the database. */
export type EventObjects = {
  sender_profile?: Static<typeof SenderProfileObject> | null;
  automation?: Static<typeof AutomationObject> | null;
  linkedin_message?: Static<typeof LinkedinMessageObject> | null;
  email?: Static<typeof EmailObject> | null;
  linkedin_connection_request?: Static<typeof LinkedinConnectionRequestObject> | null;
  linkedin_connection?: Static<typeof LinkedinConnectionObject> | null;
  issue?: Static<typeof IssueObject> | null;
};

const absent = (what: string) => Type.Null({ description: `Always null on this event (${what})` });

function payloadSchema(name: EventName) {
  const definition = EVENT_CATALOG[name];
  const objects = Object.fromEntries(
    (Object.keys(OBJECT_SCHEMAS) as EventObjectKey[]).map((key) => [
      key,
      definition.objects.includes(key) ? Nullable(OBJECT_SCHEMAS[key]) : absent(`no ${key}`),
    ]),
  );
  return Type.Object(
    {
      event_name: Type.Literal(name, { description: 'The event' }),
      event_uuid: Uuid('Stable id of the event; also the webhook-id header. Deduplicate on it'),
      occurred_at: DateTime('When the event happened'),
      team_id: Type.Integer({ description: 'Team the event belongs to' }),
      contact: definition.contact ? ContactSnapshot : absent('not about a contact'),
      account: Nullable(AccountSnapshot),
      sender_profile: definition.sender ? Nullable(SenderProfileObject) : absent('no sender profile'),
      automation: definition.sender ? Nullable(AutomationObject) : absent('not raised by a flow'),
      ...objects,
    },
    { title: `${name} payload`, description: definition.description },
  );
}

/** One payload schema per event, in catalog order. */
export const EVENT_PAYLOAD_SCHEMAS = EVENT_NAMES.map(payloadSchema);

// Typed loosely: the shapes are for the document; code builds payloads in SQL and sample-payloads.ts.
export const EventPayload = Type.Unsafe<Record<string, unknown>>(
  Type.Union(EVENT_PAYLOAD_SCHEMAS, {
    description: 'The JSON body delivered for an event; `event_name` tells which shape it has',
  }),
);
