import type { paths } from '@leadflow/sdk';

export type Contact =
  paths['/leads/api/leads/search']['post']['responses']['200']['content']['application/json']['data'][number] & {
    created_at?: string;
    updated_at?: string;
  };

/** The name a person would call the contact by: full name, else e-mail or LinkedIn handle. */
export function contactName(contact: Contact): string {
  const name = contact.name ?? [contact.first_name, contact.last_name].filter(Boolean).join(' ');
  return name || contact.work_email || contact.personal_email || contact.linkedin || 'Unnamed contact';
}
