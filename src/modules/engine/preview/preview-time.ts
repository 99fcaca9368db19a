// Local days of senders for the preview, as the dispatcher counts them (usageWindow of run/sender-usage.ts),
// cached per time zone and day: the preview asks for them at every action.
import { addDays } from '../../../lib/schedule.js';
import { usageWindow } from '../run/sender-usage.js';
import type { SenderRow } from '../run/work.js';

export type UsageDay = {
  date: string;
  dayStart: Date;
  nextDay: Date;
  /** The 7 local dates ending on `date` (the rolling week of the weekly caps). */
  weekDates: string[];
};

const cache = new Map<string, UsageDay>();

export function usageWindowOf(sender: Pick<SenderRow, 'schedule'>, now: Date): UsageDay {
  const zone = sender.schedule.timezone;
  const hit = cache.get(zone);
  const t = now.getTime();
  if (hit && hit.dayStart.getTime() <= t && t < hit.nextDay.getTime()) return hit;
  const window = usageWindow(sender, now);
  const day: UsageDay = {
    date: window.date,
    dayStart: window.dayStart,
    nextDay: window.nextDay,
    weekDates: Array.from({ length: 7 }, (_, i) => addDays(window.date, -i)),
  };
  if (cache.size > 1000) cache.clear();
  cache.set(zone, day);
  return day;
}
