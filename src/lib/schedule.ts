// The weekly schedule of flows and sender profiles: wall-clock minute ranges per weekday in an IANA
// time zone. Pure data and checks here; the engine's time maths (windows, DST) builds on it.
import { IANAZone } from 'luxon';
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
