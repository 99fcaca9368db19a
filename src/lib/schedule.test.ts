import { describe, expect, it } from 'vitest';
import {
  addDelay,
  defaultSchedule,
  isOpenAt,
  isValidTimeZone,
  localDate,
  nextOpenInstant,
  scheduleProblems,
  windowsOn,
} from './schedule.js';

describe('schedule checks', () => {
  it('accepts IANA zones and refuses made-up ones', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Asia/Kathmandu')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });

  it('names every bad block and the bad zone under its path', () => {
    const problems = scheduleProblems({
      timezone: 'Nowhere/City',
      use_lead_timezone: false,
      timeblocks: [
        { dow: 1, min: 540, max: 1080 },
        { dow: 2, min: 600, max: 600 },
        { dow: 3, min: 900, max: 100 },
      ],
    });
    expect(Object.keys(problems).sort()).toEqual([
      'schedule.timeblocks.1',
      'schedule.timeblocks.2',
      'schedule.timezone',
    ]);
    expect(problems['schedule.timeblocks.2']?.[0]).toContain('min 900 >= max 100');
  });

  it('defaults to Monday-Friday 09:00-18:00 in the given zone', () => {
    const schedule = defaultSchedule('America/New_York');
    expect(schedule.timezone).toBe('America/New_York');
    expect(schedule.timeblocks.map((b) => b.dow)).toEqual([1, 2, 3, 4, 5]);
    expect(scheduleProblems(schedule)).toEqual({});
  });
});

describe('schedule time maths on fixed dates', () => {
  const weekdays = (timezone: string, min = 540, max = 1080) => ({
    timezone,
    use_lead_timezone: false,
    timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min, max })),
  });
  const everyDay = (timezone: string, min: number, max: number) => ({
    timezone,
    use_lead_timezone: false,
    timeblocks: [0, 1, 2, 3, 4, 5, 6].map((dow) => ({ dow, min, max })),
  });
  const iso = (d: Date | null) => d?.toISOString();

  it('keeps 09:00-18:00 wall-clock on both sides of a DST change (New York, Berlin)', () => {
    // New York springs forward on Sunday 2026-03-08; Monday 9:00 EDT is 13:00Z, the Friday before 14:00Z.
    expect(windowsOn(weekdays('America/New_York'), '2026-03-06').map((w) => iso(w.start))).toEqual([
      '2026-03-06T14:00:00.000Z',
    ]);
    expect(windowsOn(weekdays('America/New_York'), '2026-03-09')).toEqual([
      { start: new Date('2026-03-09T13:00:00Z'), end: new Date('2026-03-09T22:00:00Z') },
    ]);
    // Berlin falls back on Sunday 2026-10-25: Monday 09:00 CET is 08:00Z.
    expect(windowsOn(weekdays('Europe/Berlin'), '2026-10-23')[0]?.start).toEqual(
      new Date('2026-10-23T07:00:00Z'),
    );
    expect(windowsOn(weekdays('Europe/Berlin'), '2026-10-26')[0]?.start).toEqual(
      new Date('2026-10-26T08:00:00Z'),
    );
    // Weekends are closed.
    expect(windowsOn(weekdays('Europe/Berlin'), '2026-10-25')).toEqual([]);
  });

  it('moves a start inside a spring-forward gap to the first instant after it', () => {
    // 02:30 does not exist in New York on 2026-03-08: the window opens at 03:00 EDT (07:00Z).
    const ny = windowsOn(everyDay('America/New_York', 150, 240), '2026-03-08');
    expect(ny).toEqual([{ start: new Date('2026-03-08T07:00:00Z'), end: new Date('2026-03-08T08:00:00Z') }]);
    // Lord Howe jumps 02:00 -> 02:30 (a 30-minute DST) on 2026-10-04: 02:10 becomes 02:30 (+11:00).
    const lh = windowsOn(everyDay('Australia/Lord_Howe', 130, 180), '2026-10-04');
    expect(lh[0]?.start).toEqual(new Date('2026-10-03T15:30:00Z'));
    // Santiago's midnight does not exist on 2026-09-06 (00:00 -> 01:00): a day starting at 00:00 opens at 01:00.
    const cl = windowsOn(everyDay('America/Santiago', 0, 120), '2026-09-06');
    expect(cl).toEqual([{ start: new Date('2026-09-06T04:00:00Z'), end: new Date('2026-09-06T05:00:00Z') }]);
  });

  it('handles zones with odd offsets and merges touching blocks', () => {
    const kathmandu = {
      timezone: 'Asia/Kathmandu',
      use_lead_timezone: false,
      timeblocks: [
        { dow: 1, min: 540, max: 720 },
        { dow: 1, min: 720, max: 1080 },
        { dow: 1, min: 600, max: 660 },
      ],
    };
    expect(windowsOn(kathmandu, '2026-06-01')).toEqual([
      { start: new Date('2026-06-01T03:15:00Z'), end: new Date('2026-06-01T12:15:00Z') },
    ]);
  });

  it('finds the next open instant across nights, weekends and a missing schedule', () => {
    const berlin = weekdays('Europe/Berlin');
    // Inside a window: now.
    expect(iso(nextOpenInstant(berlin, new Date('2026-06-03T10:00:00Z')))).toBe('2026-06-03T10:00:00.000Z');
    // Friday 19:00 Berlin -> Monday 09:00 (CEST, 07:00Z).
    expect(iso(nextOpenInstant(berlin, new Date('2026-06-05T17:00:00Z')))).toBe('2026-06-08T07:00:00.000Z');
    // In the contact's zone instead of the schedule's: 09:00 in Kathmandu.
    expect(iso(nextOpenInstant(berlin, new Date('2026-06-01T00:00:00Z'), 'Asia/Kathmandu'))).toBe(
      '2026-06-01T03:15:00.000Z',
    );
    expect(isOpenAt(berlin, new Date('2026-06-03T15:59:00Z'))).toBe(true);
    expect(isOpenAt(berlin, new Date('2026-06-03T16:00:00Z'))).toBe(false);
    expect(
      nextOpenInstant({ timezone: 'UTC', use_lead_timezone: false, timeblocks: [] }, new Date()),
    ).toBeNull();
  });

  it('adds whole days as calendar days and other delays as exact time', () => {
    // 09:00 New York on Saturday 2026-03-07 plus one day is 09:00 EDT on Sunday (23 hours later).
    const saturday = new Date('2026-03-07T14:00:00Z');
    expect(iso(addDelay(saturday, 86_400, 'America/New_York'))).toBe('2026-03-08T13:00:00.000Z');
    expect(iso(addDelay(saturday, 7200, 'America/New_York'))).toBe('2026-03-07T16:00:00.000Z');
    expect(addDelay(saturday, 0, 'UTC')).toBe(saturday);
    expect(localDate(new Date('2026-06-01T22:30:00Z'), 'Asia/Kathmandu')).toBe('2026-06-02');
  });
});
