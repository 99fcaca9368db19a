import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../http/schemas.js';

const count = (description: string) => Type.Integer({ description });
const time = (description: string) => Nullable(DateTime(description));

export const LeadMarker = Type.Object(
  {
    sender_profile_uuid: Nullable(Uuid('The sender profile; null on the aggregate row (all senders)')),
    email_sent_count: count('E-mails sent to the contact'),
    email_inbox_count: count('E-mails received from the contact'),
    email_read_count: count('Opens of e-mails sent (tracked)'),
    email_click_count: count('Clicks in e-mails sent (tracked)'),
    email_first_message_sent_at: time('First e-mail sent'),
    email_last_message_sent_at: time('Last e-mail sent'),
    linkedin_last_connection_sent_at: time('Last LinkedIn connection request sent'),
    linkedin_last_connection_accepted_at: time('Last connection request the contact accepted'),
    linkedin_last_connection_lost_at: time('When the connection was last lost (not detected yet: null)'),
    linkedin_messages_sent_count: count('LinkedIn messages and InMails sent'),
    linkedin_messages_inbox_count: count('LinkedIn messages and InMails received'),
    last_messaging_activity_at: time('Last message or e-mail in either direction'),
  },
  {
    description:
      'Counters of one sender profile\u2019s exchanges with the contact (or of all, on the aggregate)',
  },
);

export const LeadMarkers = Type.Array(LeadMarker, {
  description:
    'One row per sender profile that exchanged with the contact, then the aggregate row (sender_profile_uuid ' +
    'null); empty when none did. Left out with disable_aggregation=true',
});
