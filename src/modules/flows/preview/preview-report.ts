// The preview's answer from its run: per sender and local day what went out against the limits and
// what waited on them, per node who got there when, the first contacts step by step, the totals.
import { DateTime } from 'luxon';
import { isActionType } from '../../channels/driver.js';
import type { CompiledVersion, PreviewEnrollment, PreviewRun } from '../../engine/index.js';
import { dailyLimitOf, type QueuedAction, type SenderLane, senderActionLimits } from '../../engine/index.js';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const REPLIES = new Set(['linkedin_replied', 'linkedin_inmail_replied', 'email_replied']);

/** The sender's local days covering [start, end]: their dates and where each begins. */
function localDays(zone: string, start: Date, end: Date) {
  const dates: string[] = [];
  const starts: number[] = [];
  let day = DateTime.fromJSDate(start, { zone }).startOf('day');
  while (day.toMillis() <= end.getTime()) {
    dates.push(day.toISODate() as string);
    starts.push(day.toMillis());
    day = day.plus({ days: 1 });
  }
  const indexOf = (t: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return { dates, indexOf };
}

function capped(lane: SenderLane, type: QueuedAction['type'], dates: string[], i: number): boolean {
  const date = dates[i] as string;
  const used = (d: string) => lane.used.get(`${d}|${type}`) ?? 0;
  if (used(date) >= dailyLimitOf(lane, type, date)) return true;
  const weekly = senderActionLimits(lane.sender, type, date).weekly;
  if (weekly === null) return false;
  let week = 0;
  for (let k = Math.max(0, i - 6); k <= i; k += 1) week += used(dates[k] as string);
  return week >= weekly;
}

function senderReport(lanes: SenderLane[], actionTypes: QueuedAction['type'][], start: Date, end: Date) {
  const sender = (lanes[0] as SenderLane).sender;
  const { dates, indexOf } = localDays(sender.schedule.timezone, start, end);
  const waiting = new Array<number>(dates.length).fill(0);
  for (const lane of lanes) {
    for (const action of lane.history) {
      const from = indexOf(Math.max(action.readyAt.getTime(), start.getTime()));
      const doneAt = action.doneAt ? action.doneAt.getTime() : end.getTime();
      const to = action.doneAt ? indexOf(doneAt) - 1 : dates.length - 1;
      for (let i = from; i <= to; i += 1)
        if (capped(lane, action.type, dates, i)) waiting[i] = (waiting[i] ?? 0) + 1;
    }
  }
  return {
    uuid: sender.uuid,
    name: [sender.first_name, sender.last_name].filter(Boolean).join(' ') || sender.uuid,
    timezone: sender.schedule.timezone,
    unavailable: lanes.filter((l) => l.unavailable).map((l) => `${l.channel}: ${l.unavailable}`),
    days: dates.map((date, i) => {
      const actions: Record<string, number> = {};
      const limits: Record<string, number> = {};
      for (const lane of lanes) {
        for (const type of actionTypes) {
          const n = lane.used.get(`${date}|${type}`);
          if (n) actions[type] = (actions[type] ?? 0) + n;
        }
      }
      const lane = lanes[0] as SenderLane;
      for (const type of actionTypes) limits[type] = dailyLimitOf(lane, type, date);
      return { date, actions, limits, waiting_on_limits: waiting[i] ?? 0 };
    }),
  };
}

function median(times: number[]): number | null {
  if (times.length === 0) return null;
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] as number;
}

function nodeReport(version: CompiledVersion, enrollments: PreviewEnrollment[], run: PreviewRun) {
  const reach = new Map<number, number[]>();
  const statuses = new Map<number, Record<string, number>>();
  const branches = new Map<number, Record<string, number>>();
  for (const e of enrollments) {
    e.steps.forEach((task, i) => {
      const list = reach.get(task.flow_node_id) ?? [];
      list.push((e.reachedAt[i] as Date).getTime());
      reach.set(task.flow_node_id, list);
      const s = statuses.get(task.flow_node_id) ?? {};
      s[task.status] = (s[task.status] ?? 0) + 1;
      statuses.set(task.flow_node_id, s);
      if (task.fork_result !== null && task.fork_result !== undefined) {
        const b = branches.get(task.flow_node_id) ?? {};
        b[String(task.fork_result)] = (b[String(task.fork_result)] ?? 0) + 1;
        branches.set(task.flow_node_id, b);
      }
    });
  }
  return [...version.nodes.values()].map((node) => {
    const times = reach.get(node.id) ?? [];
    const at = (t: number | null) => (t === null ? null : new Date(t).toISOString());
    return {
      id: node.id,
      type: node.type,
      reached: times.length,
      statuses: statuses.get(node.id) ?? {},
      branches: branches.get(node.id) ?? {},
      first_at: at(times.length ? Math.min(...times) : null),
      median_at: at(median(times)),
      last_at: at(times.length ? Math.max(...times) : null),
      accepted: run.conversions.get(node.id)?.accepted ?? 0,
      replied: run.conversions.get(node.id)?.replied ?? 0,
    };
  });
}

function enrollmentDetail(e: PreviewEnrollment) {
  return {
    lead_uuid: e.lead.uuid,
    name: e.lead.name ?? ([e.lead.first_name, e.lead.last_name].filter(Boolean).join(' ') || null),
    sender_profile_uuid: e.fl.sender_profile_uuid,
    status: e.fl.status,
    reason: e.fl.reason,
    finished_at: iso(e.fl.finished_at),
    steps: e.steps.map((task, i) => {
      const payload = (task.payload ?? {}) as Record<string, unknown>;
      return {
        node_id: task.flow_node_id,
        type: task.type,
        reached_at: (e.reachedAt[i] as Date).toISOString(),
        executed_at: iso(task.executed_at),
        status: task.status,
        fork_result: task.fork_result,
        error_code: task.automation_error_code,
        text: typeof payload.rendered_text === 'string' ? payload.rendered_text : null,
        subject: typeof payload.rendered_subject === 'string' ? payload.rendered_subject : null,
        missing_variables: Array.isArray(payload.missing_variables)
          ? payload.missing_variables.map(String)
          : [],
      };
    }),
  };
}

export function buildReport(input: {
  version: CompiledVersion;
  enrollments: PreviewEnrollment[];
  lanes: SenderLane[];
  run: PreviewRun;
  start: Date;
  end: Date;
  detail: number;
}) {
  const { version, enrollments, lanes, run } = input;
  const actionTypes = [
    ...new Set([...version.nodes.values()].map((n) => n.type).filter(isActionType)),
  ] as QueuedAction['type'][];
  const bySender = new Map<string, SenderLane[]>();
  for (const lane of lanes) bySender.set(lane.sender.uuid, [...(bySender.get(lane.sender.uuid) ?? []), lane]);
  const senders = [...bySender.values()].map((group) =>
    senderReport(group, actionTypes, input.start, run.simulatedUntil),
  );

  const actions: Record<string, number> = {};
  const statuses: Record<string, number> = {};
  const reasons: Record<string, number> = {};
  let lastFinished: number | null = 0;
  for (const e of enrollments) {
    for (const task of e.steps) {
      if (task.status === 'closed' && isActionType(task.type))
        actions[task.type] = (actions[task.type] ?? 0) + 1;
    }
    statuses[e.fl.status] = (statuses[e.fl.status] ?? 0) + 1;
    if (e.fl.reason) reasons[e.fl.reason] = (reasons[e.fl.reason] ?? 0) + 1;
    if (e.fl.status === 'in_progress' || e.fl.status === 'paused') lastFinished = null;
    else if (lastFinished !== null) lastFinished = Math.max(lastFinished, e.fl.finished_at?.getTime() ?? 0);
  }
  const repliedContacts = new Set(run.answers.filter((a) => REPLIES.has(a.kind)).map((a) => a.enrollment));
  return {
    totals: {
      actions,
      accepted: run.answers.filter((a) => a.kind === 'connection_accepted').length,
      replied: repliedContacts.size,
      statuses,
      reasons,
      waiting_on_limits: senders.reduce((sum, s) => sum + (s.days.at(-1)?.waiting_on_limits ?? 0), 0),
      last_finished_at: lastFinished ? new Date(lastFinished).toISOString() : null,
    },
    senders,
    nodes: nodeReport(version, enrollments, run),
    enrollments: enrollments.slice(0, input.detail).map(enrollmentDetail),
  };
}
