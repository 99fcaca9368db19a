// The preview's answer as the panel shows it: one row per local day of a sender (actions by type, the
// day's limits, what waited), and one row per step with when contacts reach it.
import type { PreviewResult } from '../../flow-types';
import { labelOf } from '../node-meta';

export type SenderPreview = PreviewResult['senders'][number];

/** The action types any sender did or was limited on, in a stable order. */
export function actionTypesOf(sender: SenderPreview): string[] {
  const types = new Set<string>();
  for (const day of sender.days) for (const type of Object.keys(day.limits)) types.add(type);
  return [...types].sort();
}

export type DayRow = Record<string, string | number> & { date: string; waiting: number };

export function dayRows(sender: SenderPreview): DayRow[] {
  const types = actionTypesOf(sender);
  return sender.days.map((day) => {
    const row: DayRow = { date: day.date, waiting: day.waiting_on_limits };
    for (const type of types) {
      row[labelOf(type)] = day.actions[type] ?? 0;
      row[`${labelOf(type)} limit`] = day.limits[type] ?? 0;
    }
    return row;
  });
}

export type TableRow = { date: string; action: string; done: number; limit: number; waiting: number };

/** The same numbers as a long table (one row per day and action type), for the table view and CSV. */
export function tableRows(sender: SenderPreview): TableRow[] {
  const types = actionTypesOf(sender);
  return sender.days.flatMap((day) =>
    types.map((type) => ({
      date: day.date,
      action: labelOf(type),
      done: day.actions[type] ?? 0,
      limit: day.limits[type] ?? 0,
      waiting: day.waiting_on_limits,
    })),
  );
}

export function finishText(result: PreviewResult): string {
  const left = (result.totals.statuses.in_progress ?? 0) + (result.totals.statuses.paused ?? 0);
  if (left > 0)
    return `${left} of ${result.contacts.total} contacts are still in the flow after ${days(result)} days.`;
  const last = result.totals.last_finished_at;
  return last
    ? `The last contact finishes on ${new Date(last).toLocaleDateString(undefined, { dateStyle: 'medium' })}.`
    : 'No contact went through the flow.';
}

function days(result: PreviewResult): number {
  return Math.round((Date.parse(result.ends_at) - Date.parse(result.started_at)) / 86_400_000);
}
