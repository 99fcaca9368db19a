// Words for task types and statuses, shared by the day view and the task list.
import type { paths } from '@leadflow/sdk';

export type Task =
  paths['/flows/api/tasks']['get']['responses']['200']['content']['application/json']['data'][number];

export const MANUAL_TYPES = [
  'linkedin_send_message',
  'linkedin_send_connection_request',
  'linkedin_send_inmail',
  'linkedin_like_latest_post',
  'linkedin_endorse_skills',
] as const;

const TYPE_LABEL: Record<string, string> = {
  linkedin_send_message: 'Send a LinkedIn message',
  linkedin_send_connection_request: 'Send a connection request',
  linkedin_send_inmail: 'Send an InMail',
  linkedin_like_latest_post: 'Like their latest post',
  linkedin_endorse_skills: 'Endorse their skills',
  email_send_message: 'Send an e-mail',
  util_hodor: 'Held for a person',
};

export function typeLabel(type: string): string {
  return TYPE_LABEL[type] ?? type.replaceAll('_', ' ');
}

export const STATUS_LABEL: Record<string, string> = {
  in_progress: 'To do',
  closed: 'Done',
  canceled: 'Canceled',
  failed: 'Failed',
  skipped: 'Skipped',
};
export const STATUS_COLOR: Record<string, string> = {
  in_progress: 'blue',
  closed: 'green',
  canceled: 'gray',
  failed: 'red',
  skipped: 'yellow',
};

/** The text a to-do asks to send (payload.template), if any. */
export function taskText(task: Pick<Task, 'payload'>): string | undefined {
  const template = task.payload?.template;
  return typeof template === 'string' && template.trim() ? template : undefined;
}

/** yyyy-mm-dd of today in an IANA zone. */
export function todayIn(zone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

/** HH:mm of an ISO time that carries its zone's offset (as the schedule answers). */
export function clock(localIso: string): string {
  return localIso.slice(11, 16);
}
