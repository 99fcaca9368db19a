// Sample payloads for the test endpoint and the event catalog: the exact envelope a real delivery has,
// filled with example values, or with a real contact (and its company) of the team when asked.
import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import { EVENT_CATALOG, EVENT_OBJECT_KEYS, type EventName } from '../events/events.catalog.js';
import { CONTACT_PAYLOAD_FIELDS, contactSnapshots } from '../events/events.snapshot.js';

const SAMPLE_TIME = '2026-01-15T10:30:00.000Z';

/** The contact object with example values (the catalog's samples; dates SAMPLE_TIME, else null). */
const sampleContact = Object.fromEntries(
  CONTACT_PAYLOAD_FIELDS.map(({ key, field, sample }) => [
    key,
    sample ?? field?.sample ?? (field?.sql === 'timestamptz' ? SAMPLE_TIME : null),
  ]),
);

const sampleAccount = {
  uuid: '0190d4c2-7b1e-7c3a-9f00-000000000002',
  name: 'Acme Inc',
  domain: 'acme.example',
  website: 'https://acme.example',
  industry: 'Technology',
  employees_range: '51-200',
  size: '51-200',
  linkedin: 'acme-inc',
  linkedin_url: 'https://www.linkedin.com/company/acme-inc',
  ln_id: 1234567,
  phone: null,
  hq_raw_address: 'Berlin, Germany',
  logo_url: null,
  about: null,
  pipeline_stage_uuid: null,
  pipeline_stage_name: null,
  tags: [],
  custom_fields: {},
  status: 'ok',
  linkedin_status: 'ok',
  created_at: SAMPLE_TIME,
  updated_at: SAMPLE_TIME,
};

const sampleSender = {
  uuid: '0190d4c2-7b1e-7c3a-9f00-000000000005',
  first_name: 'Sam',
  last_name: 'Seller',
  label: 'Sam (EU)',
  assignee_user_id: 1,
  team_id: 1,
};

const sampleAutomation = {
  uuid: '0190d4c2-7b1e-7c3a-9f00-000000000006',
  name: 'Q1 outreach',
  status: 'on',
  priority: 2,
};

function sampleObjects(name: EventName): Record<string, unknown> {
  const inbound = name.startsWith('contact_replied');
  const inmail = name.endsWith('inmail');
  return {
    linkedin_message: {
      uuid: '0190d4c2-7b1e-7c3a-9f00-000000000007',
      subject: inmail ? 'Quick question' : null,
      text: inbound ? 'Thanks, happy to talk next week.' : 'Hi Jane, great to connect!',
      type: inbound ? 'inbox' : 'outbox',
      status: 'done',
      linkedin_type: inmail ? 'InMail' : 'message',
      sent_at: SAMPLE_TIME,
      read_at: null,
    },
    email: {
      uuid: '0190d4c2-7b1e-7c3a-9f00-000000000008',
      subject: inbound ? 'Re: Quick question' : 'Quick question',
      body: inbound ? '<p>Sounds good, call me Tuesday.</p>' : '<p>Hi Jane, ...</p>',
      type: inbound ? 'inbox' : 'outbox',
      status: inbound ? 'sync' : 'sent',
      from_name: inbound ? 'Jane Smith' : 'Sam Seller',
      from_email: inbound ? 'jane.smith@acme.example' : 'sam@seller.example',
      to_name: inbound ? 'Sam Seller' : 'Jane Smith',
      to_email: inbound ? 'sam@seller.example' : 'jane.smith@acme.example',
      sent_at: SAMPLE_TIME,
    },
    linkedin_connection_request: {
      ln_id: 'ACoAAB6GuQ4BexampleId',
      nickname: 'jane-smith-12345',
      sent_at: SAMPLE_TIME,
    },
    linkedin_connection: { full_name: 'Jane Smith', nickname: 'jane-smith-12345', connected_at: SAMPLE_TIME },
    issue: { type: 'login_issue', message: 'The LinkedIn session was logged out; log in again.' },
  };
}

/**
 * The payload objects of a sample `name` event (without the envelope ids). With `leadUuid`, contact
 * and account are the team's real contact and its company; a contact of another team is a 404.
 */
export async function samplePayload(
  db: Executor,
  teamId: number,
  name: EventName,
  leadUuid?: string,
): Promise<Record<string, unknown>> {
  const definition = EVENT_CATALOG[name];
  let contact: unknown = definition.contact ? sampleContact : null;
  let account: unknown = sampleAccount;
  if (leadUuid) {
    const rows = await contactSnapshots(teamId, sql<SqlBool>`l.uuid = ${leadUuid}`).execute(db);
    const row = rows.rows[0];
    if (!row) throw notFound('Contact');
    if (definition.contact) contact = row.contact;
    account = row.account;
  }
  const objects = sampleObjects(name);
  return {
    contact,
    account,
    sender_profile: definition.sender ? { ...sampleSender, team_id: teamId } : null,
    automation: definition.sender && name !== 'sender_profile_issue' ? sampleAutomation : null,
    ...Object.fromEntries(
      EVENT_OBJECT_KEYS.map((key) => [key, definition.objects.includes(key) ? objects[key] : null]),
    ),
  };
}
