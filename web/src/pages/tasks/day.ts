// "My day" data: per sender profile, the to-dos of its local today as GET /flows/api/tasks/schedule
// orders them (time, then uuid), after the ones still open from earlier days; with each task's text and
// its contact.
import { api, call } from '../../api';
import { contactsByUuid } from '../../ui/contacts-by-uuid';
import type { Sender } from '../../ui/useSenders';
import type { Contact } from '../contacts/contact';
import { type Task, todayIn } from './task-meta';

export type DayItem = { task: Task; time: string; overdue: boolean; contact: Contact | undefined };
export type SenderDay = { sender: Sender; date: string; windows: string[]; items: DayItem[] };

const listTasks = (filter: Record<string, unknown>, limit: number) =>
  call(
    api.GET('/flows/api/tasks', {
      params: {
        // A JSON filter carries lists and operators, which the bracket form of a query string cannot.
        query: {
          limit,
          order_field: 'schedule_at',
          order_type: 'asc',
          filter: JSON.stringify(filter) as never,
        },
      },
    }),
  );

async function senderDay(sender: Sender) {
  const date = todayIn(sender.schedule.timezone);
  const answer = await call(
    api.GET('/flows/api/tasks/schedule', { params: { query: { sender_profile_uuid: sender.uuid, date } } }),
  );
  // Asked with a sender, the schedule answers that sender's day (the {data} form is the team-wide one).
  if ('data' in answer) throw new Error('GET /flows/api/tasks/schedule answered the team-wide form');
  const day = answer;
  const planned = day.tasks.filter((t) => t.automation === 'manual' && t.state === 'planned');
  const [overdue, details] = await Promise.all([
    listTasks(
      {
        automation: 'manual',
        status: 'in_progress',
        sender_profile_uuid: sender.uuid,
        schedule_at: { '<': day.day.start },
      },
      200,
    ),
    planned.length > 0
      ? listTasks({ uuid: planned.map((t) => t.uuid) }, 1000)
      : Promise.resolve({ data: [] }),
  ]);
  const byUuid = new Map(details.data.map((t) => [t.uuid, t]));
  const items = [
    ...overdue.data.map((task) => ({ task, time: 'Overdue', overdue: true })),
    ...planned.flatMap((t) => {
      const task = byUuid.get(t.uuid);
      return task ? [{ task, time: t.local_time.slice(11, 16), overdue: false }] : [];
    }),
  ];
  const windows = day.windows.map((w) => `${w.local_start.slice(11, 16)}–${w.local_end.slice(11, 16)}`);
  return { sender, date, windows, items };
}

export async function loadDays(senders: Sender[]): Promise<SenderDay[]> {
  const days = await Promise.all(senders.map(senderDay));
  const contacts = await contactsByUuid(days.flatMap((d) => d.items.map((i) => i.task.lead_uuid)));
  return days.map((d) => ({
    ...d,
    items: d.items.map((i) => ({ ...i, contact: contacts.get(i.task.lead_uuid) })),
  }));
}
