// The event catalog: every event a webhook can subscribe to, with the names the hosted service uses
// so existing receivers (n8n, Make, Zapier flows written for it) keep working unchanged.

export const EVENT_NAMES = [
  'contact_exported',
  'account_exported',
  'contact_enriched',
  'contact_replied_email',
  'contact_replied_linkedin_message',
  'contact_replied_linkedin_inmail',
  'contact_accepted_linkedin_connection_request',
  'sender_profile_sent_linkedin_connection_request',
  'sender_profile_sent_linkedin_message',
  'sender_profile_sent_email',
  'sender_profile_sent_linkedin_inmail',
  'sender_profile_issue',
  'contact_opened_email',
  'contact_clicked_email',
  'contact_unsubscribed_email',
  'email_bounced',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** Objects an event carries besides contact, account, sender_profile and automation. */
export type EventObjectKey =
  | 'linkedin_message'
  | 'email'
  | 'linkedin_connection_request'
  | 'linkedin_connection'
  | 'issue';

export const EVENT_OBJECT_KEYS: readonly EventObjectKey[] = [
  'linkedin_message',
  'email',
  'linkedin_connection_request',
  'linkedin_connection',
  'issue',
];

export type EventDefinition = {
  description: string;
  /** The event is about a contact (contact filters of webhooks apply to it). */
  contact: boolean;
  /** A sender profile (and, when a flow did it, the automation) took part. */
  sender: boolean;
  /** Per-event objects this event fills. */
  objects: readonly EventObjectKey[];
};

export const EVENT_CATALOG: Record<EventName, EventDefinition> = {
  contact_exported: {
    description: 'A contact was written to a finished CSV export (one event per exported contact).',
    contact: true,
    sender: false,
    objects: [],
  },
  account_exported: {
    description: 'A company was written to a finished CSV export (one event per exported company).',
    contact: false,
    sender: false,
    objects: [],
  },
  contact_enriched: {
    description: 'A contact was enriched with LinkedIn data.',
    contact: true,
    sender: false,
    objects: [],
  },
  contact_replied_email: {
    description: 'A contact replied to an e-mail; `email` is the reply.',
    contact: true,
    sender: true,
    objects: ['email'],
  },
  contact_replied_linkedin_message: {
    description: 'A contact replied to a LinkedIn message; `linkedin_message` is the reply.',
    contact: true,
    sender: true,
    objects: ['linkedin_message'],
  },
  contact_replied_linkedin_inmail: {
    description: 'A contact replied to an InMail; `linkedin_message` is the reply.',
    contact: true,
    sender: true,
    objects: ['linkedin_message'],
  },
  contact_accepted_linkedin_connection_request: {
    description: 'A contact accepted a sender profile\u2019s connection request.',
    contact: true,
    sender: true,
    objects: ['linkedin_connection'],
  },
  sender_profile_sent_linkedin_connection_request: {
    description: 'A sender profile sent a LinkedIn connection request to a contact.',
    contact: true,
    sender: true,
    objects: ['linkedin_connection_request'],
  },
  sender_profile_sent_linkedin_message: {
    description: 'A sender profile sent a LinkedIn message to a contact.',
    contact: true,
    sender: true,
    objects: ['linkedin_message'],
  },
  sender_profile_sent_email: {
    description: 'A sender profile sent an e-mail to a contact.',
    contact: true,
    sender: true,
    objects: ['email'],
  },
  sender_profile_sent_linkedin_inmail: {
    description: 'A sender profile sent an InMail to a contact.',
    contact: true,
    sender: true,
    objects: ['linkedin_message'],
  },
  contact_opened_email: {
    description: 'A contact opened an e-mail (its tracking pixel loaded; flows with open tracking only).',
    contact: true,
    sender: true,
    objects: ['email'],
  },
  contact_clicked_email: {
    description: 'A contact clicked a link of an e-mail (flows with click tracking only).',
    contact: true,
    sender: true,
    objects: ['email'],
  },
  contact_unsubscribed_email: {
    description:
      'A contact unsubscribed from e-mails; their address is blacklisted and their e-mail steps stop.',
    contact: true,
    sender: true,
    objects: ['email'],
  },
  email_bounced: {
    description: 'An e-mail to a contact bounced permanently; the contact\u2019s e-mail steps stop.',
    contact: true,
    sender: true,
    objects: ['email'],
  },
  sender_profile_issue: {
    description: 'A sender profile needs attention (e.g. its LinkedIn session was logged out).',
    contact: false,
    sender: true,
    objects: ['issue'],
  },
};

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as readonly string[]).includes(value);
}
