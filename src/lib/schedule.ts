// The weekly schedule of flows and sender profiles: wall-clock minute ranges per weekday in an IANA
// time zone. Pure data and checks here; the engine's time maths (windows, DST) builds on it.
import { DateTime, IANAZone } from 'luxon';
import { AppError } from './errors.js';

export type TimeBlock = {
  /** 0 = Sunday ... 6 = Saturday. */
  dow: number;
  /** Minutes from local midnight, 0 <= min < max <= 1440. */
  min: number;
  max: number;
};

export type Schedule = {
  timezone: string;
  /** Plan each contact's steps in the contact's own time zone when it is known. */
  use_lead_timezone: boolean;
  timeblocks: TimeBlock[];
};

export function isValidTimeZone(zone: unknown): zone is string {
  return typeof zone === 'string' && zone.length > 0 && IANAZone.isValidZone(zone);
}

/** Monday to Friday, 09:00-18:00 in `timezone`. */
export function defaultSchedule(timezone = 'UTC'): Schedule {
  return {
    timezone,
    use_lead_timezone: false,
    timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1080 })),
  };
}

/**
 * Rules JSON Schema cannot state (a known zone, min before max), checked after the shape: every
 * problem is reported under its path (`schedule.timeblocks.2.max`), all at once.
 */
export function scheduleProblems(schedule: Schedule, path = 'schedule'): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  if (!isValidTimeZone(schedule.timezone)) {
    problems[`${path}.timezone`] = [
      `${path}.timezone must be an IANA time zone such as "Europe/Berlin" or "UTC" (got "${schedule.timezone}").`,
    ];
  }
  schedule.timeblocks.forEach((block, index) => {
    if (!(block.min < block.max)) {
      problems[`${path}.timeblocks.${index}`] = [
        `${path}.timeblocks.${index} must end after it starts (min ${block.min} >= max ${block.max}); min and max are minutes from midnight, 0 <= min < max <= 1440.`,
      ];
    }
  });
  return problems;
}

/** Throws a 422 listing every problem of `schedule`. */
export function assertValidSchedule(schedule: Schedule, path = 'schedule'): void {
  const problems = scheduleProblems(schedule, path);
  const first = Object.values(problems)[0]?.[0];
  if (first) throw new AppError('validation_error', first, problems);
}

// ---- time maths over a schedule (pure: every function takes the instant it reasons about) ----

export type Window = { start: Date; end: Date };

const MINUTES_PER_DAY = 1440;

/** The local date (yyyy-mm-dd) of `at` in `zone`. */
export function localDate(at: Date, zone: string): string {
  return DateTime.fromJSDate(at, { zone }).toISODate() as string;
}

/**
 * The instant of local wall-clock `minutes` after midnight of `isoDate` in `zone`; 1440 is the next
 * midnight. A wall-clock time that does not exist (inside a spring-forward gap) becomes the first
 * instant after the gap.
 */
function localInstant(isoDate: string, minutes: number, zone: string): Date {
  const day = DateTime.fromISO(isoDate, { zone });
  if (minutes >= MINUTES_PER_DAY)
    return DateTime.fromISO(isoDate, { zone }).plus({ days: 1 }).startOf('day').toJSDate();
  const hour = Math.floor(minutes / 60);
  const minute = minutes % 60;
  let at = day.set({ hour, minute, second: 0, millisecond: 0 });
  if (at.hour === hour && at.minute === minute) return at.toJSDate();
  // Luxon moved the missing time forward by the gap's length; walk back to where the gap ends.
  const wanted = hour * 60 + minute;
  const wallMinutes = (t: DateTime) => (t.toISODate() === isoDate ? t.hour * 60 + t.minute : -1);
  while (wallMinutes(at.minus({ minutes: 1 })) >= wanted) at = at.minus({ minutes: 1 });
  return at.toJSDate();
}

/**
 * The open windows of `schedule` on the local date `isoDate` of its time zone, in order, overlapping
 * and touching blocks merged. DST-correct: a window's instants are wall-clock times of that day.
 */
export function windowsOn(schedule: Schedule, isoDate: string, zone = schedule.timezone): Window[] {
  return cachedWindows(schedule, isoDate, zone).map((w) => ({
    start: new Date(w.start),
    end: new Date(w.end),
  }));
}

// Schedules are read far more often than they change (the engine and the flow preview ask for the same
// days again and again), and luxon's zone maths is the expensive part: the windows of a schedule's day
// and the local days of a zone are remembered. A schedule object whose timeblocks array is replaced
// starts over; the caches are bounded.
const windowCache = new WeakMap<Schedule, { blocks: TimeBlock[]; days: Map<string, Window[]> }>();

function cachedWindows(schedule: Schedule, isoDate: string, zone: string): Window[] {
  let entry = windowCache.get(schedule);
  if (!entry || entry.blocks !== schedule.timeblocks || entry.days.size > 2000) {
    entry = { blocks: schedule.timeblocks, days: new Map() };
    windowCache.set(schedule, entry);
  }
  const key = `${zone}|${isoDate}`;
  let windows = entry.days.get(key);
  if (!windows) {
    windows = computeWindows(schedule, isoDate, zone);
    entry.days.set(key, windows);
  }
  return windows;
}

type LocalDay = { start: number; end: number; date: string };
const dayCache = new Map<string, LocalDay[]>();

/** The local day of `zone` holding the instant `at` (its bounds and date), remembered per zone. */
function localDayOf(at: number, zone: string): LocalDay {
  let days = dayCache.get(zone);
  if (!days || days.length > 4000) {
    days = [];
    dayCache.set(zone, days);
  }
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((days[mid] as LocalDay).end <= at) lo = mid + 1;
    else hi = mid;
  }
  const hit = days[lo];
  if (hit && hit.start <= at && at < hit.end) return hit;
  const start = DateTime.fromMillis(at, { zone }).startOf('day');
  const day = {
    start: start.toMillis(),
    end: start.plus({ days: 1 }).startOf('day').toMillis(),
    date: start.toISODate() as string,
  };
  days.splice(lo, 0, day);
  return day;
}

function computeWindows(schedule: Schedule, isoDate: string, zone: string): Window[] {
  const dow = DateTime.fromISO(isoDate, { zone }).weekday % 7; // luxon: 1 = Monday ... 7 = Sunday
  const blocks = schedule.timeblocks
    .filter((block) => block.dow === dow && block.min < block.max)
    .sort((a, b) => a.min - b.min);
  const merged: Array<{ min: number; max: number }> = [];
  for (const block of blocks) {
    const last = merged[merged.length - 1];
    if (last && block.min <= last.max) last.max = Math.max(last.max, block.max);
    else merged.push({ min: block.min, max: block.max });
  }
  return merged
    .map((block) => ({
      start: localInstant(isoDate, block.min, zone),
      end: localInstant(isoDate, block.max, zone),
    }))
    .filter((window) => window.start < window.end);
}

/**
 * The first instant at or after `from` inside a window of `schedule` (in `zone`, the schedule's own by
 * default), or null when the schedule has no window at all.
 */
export function nextOpenInstant(schedule: Schedule, from: Date, zone = schedule.timezone): Date | null {
  const t = from.getTime();
  let day = localDayOf(t, zone);
  // A week plus a day covers every weekday even when `from` is late on its day.
  for (let i = 0; i < 9; i += 1) {
    for (const window of cachedWindows(schedule, day.date, zone)) {
      if (window.end.getTime() > t) return window.start.getTime() > t ? new Date(window.start) : from;
    }
    day = localDayOf(day.end, zone);
  }
  return null;
}

/** Whether `at` lies inside a window of `schedule` (in `zone`). */
export function isOpenAt(schedule: Schedule, at: Date, zone = schedule.timezone): boolean {
  return nextOpenInstant(schedule, at, zone)?.getTime() === at.getTime();
}

/**
 * `from` plus a delay: whole days are calendar days in `zone` (09:00 stays 09:00 across a DST
 * change), anything else is exact seconds.
 */
export function addDelay(from: Date, seconds: number, zone: string): Date {
  if (seconds <= 0) return from;
  if (seconds % 86_400 === 0) {
    return DateTime.fromJSDate(from, { zone })
      .plus({ days: seconds / 86_400 })
      .toJSDate();
  }
  return new Date(from.getTime() + seconds * 1000);
}

// ---- calendar dates (yyyy-mm-dd, no time zone involved) ----

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written yyyy-mm-dd. */
export function isIsoDate(value: unknown): value is string {
  const match = typeof value === 'string' ? ISO_DATE.exec(value) : null;
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

function dateMs(isoDate: string): number {
  if (!isIsoDate(isoDate)) throw new RangeError(`Not a calendar date (yyyy-mm-dd): ${isoDate}`);
  return Date.parse(`${isoDate}T00:00:00Z`);
}

/** `isoDate` plus `days` calendar days. */
export function addDays(isoDate: string, days: number): string {
  return new Date(dateMs(isoDate) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to`; negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateMs(to) - dateMs(from)) / DAY_MS);
}

/** The instants a local date begins and ends at in `zone` (23, 24 or 25 hours apart around DST). */
export function localDayRange(isoDate: string, zone: string): Window {
  return { start: localInstant(isoDate, 0, zone), end: localInstant(addDays(isoDate, 1), 0, zone) };
}
