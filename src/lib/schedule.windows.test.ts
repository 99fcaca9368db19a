// More schedule maths on fixed dates (schedule.test.ts has the basics): windows that a DST change
// shortens, lengthens or swallows, wall times read twice, the calendar-date helpers and local day
// ranges the task timeline uses - in New York, Berlin, Lord Howe (half-hour DST), Kathmandu (+05:45)
// and Santiago (DST at midnight).
import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  isIsoDate,
  isOpenAt,
  localDate,
  localDayRange,
  nextOpenInstant,
  type Schedule,
  windowsOn,
} from './schedule.js';

const iso = (date: Date) => date.toISOString();
const hours = (window: { start: Date; end: Date }) =>
  (window.end.getTime() - window.start.getTime()) / 3_600_000;

function everyDay(timezone: string, min: number, max: number): Schedule {
  return {
    timezone,
    use_lead_timezone: false,
    timeblocks: [0, 1, 2, 3, 4, 5, 6].map((dow) => ({ dow, min, max })),
  };
}

describe('calendar date helpers', () => {
  it('add, subtract and check dates without a time zone', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2026-03-01', '2026-03-22')).toBe(21);
    expect(daysBetween('2026-03-22', '2026-03-01')).toBe(-21);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-2-1')).toBe(false);
    expect(isIsoDate('2028-02-29')).toBe(true);
  });

  it('reads the local date of an instant in a zone', () => {
    const at = new Date('2026-06-30T22:30:00Z');
    expect(localDate(at, 'UTC')).toBe('2026-06-30');
    expect(localDate(at, 'Asia/Kathmandu')).toBe('2026-07-01');
    expect(localDate(at, 'America/Santiago')).toBe('2026-06-30');
  });
});

describe('windowsOn', () => {
  it('shortens and lengthens a window that spans the change (New York, Berlin)', () => {
    const night = everyDay('America/New_York', 60, 240);
    expect(windowsOn(night, '2026-03-08').map(hours)).toEqual([2]);
    expect(windowsOn(night, '2026-11-01').map(hours)).toEqual([4]);
    const berlin = everyDay('Europe/Berlin', 0, 1440);
    expect(windowsOn(berlin, '2026-03-29').map(hours)).toEqual([23]);
    expect(windowsOn(berlin, '2026-10-25').map(hours)).toEqual([25]);
    expect(windowsOn(berlin, '2026-10-26').map(hours)).toEqual([24]);
  });

  it('starts a window in the gap at the first valid instant (Berlin, Lord Howe)', () => {
    const [berlin] = windowsOn(everyDay('Europe/Berlin', 150, 600), '2026-03-29');
    expect(iso(berlin!.start)).toBe('2026-03-29T01:00:00.000Z'); // 03:00 CEST
    expect(iso(berlin!.end)).toBe('2026-03-29T08:00:00.000Z'); // 10:00 CEST
    const [howe] = windowsOn(everyDay('Australia/Lord_Howe', 125, 180), '2026-10-04');
    expect(iso(howe!.start)).toBe('2026-10-03T15:30:00.000Z'); // 02:30 +11
    expect(hours(howe!)).toBe(0.5);
  });

  it('drops a window the gap swallows', () => {
    expect(windowsOn(everyDay('America/New_York', 130, 170), '2026-03-08')).toEqual([]);
    expect(windowsOn(everyDay('America/Santiago', 0, 60), '2026-09-06')).toEqual([]);
  });

  it('covers both readings of a repeated wall time (Lord Howe, Santiago)', () => {
    // 01:00-02:00 on Lord Howe's fall-back day: 01:30-02:00 is read twice, so 1.5 hours are open.
    expect(windowsOn(everyDay('Australia/Lord_Howe', 60, 120), '2026-04-05').map(hours)).toEqual([1.5]);
    // Santiago falls back at midnight: 23:00-24:00 on 2026-04-04 happens twice.
    expect(windowsOn(everyDay('America/Santiago', 1320, 1440), '2026-04-04').map(hours)).toEqual([3]);
  });
});

describe('nextOpenInstant', () => {
  const schedule: Schedule = {
    timezone: 'Europe/Berlin',
    use_lead_timezone: false,
    timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1080 })),
  };

  it('is the next window start before, between and after windows', () => {
    expect(iso(nextOpenInstant(schedule, new Date('2026-03-30T05:00:00Z'))!)).toBe(
      '2026-03-30T07:00:00.000Z',
    );
    // Friday evening -> Monday 09:00, across the spring-forward weekend (CET -> CEST).
    expect(iso(nextOpenInstant(schedule, new Date('2026-03-27T17:00:00Z'))!)).toBe(
      '2026-03-30T07:00:00.000Z',
    );
    // The end of a window is not inside it.
    expect(iso(nextOpenInstant(schedule, new Date('2026-03-30T16:00:00Z'))!)).toBe(
      '2026-03-31T07:00:00.000Z',
    );
    expect(isOpenAt(schedule, new Date('2026-03-30T16:00:00Z'))).toBe(false);
  });

  it('finds a window that started the previous local day (Santiago at midnight)', () => {
    const late = everyDay('America/Santiago', 1320, 1440);
    // 2026-04-05T03:30Z is the second 23:30 of 2026-04-04 in Santiago: still open.
    const at = new Date('2026-04-05T03:30:00Z');
    expect(nextOpenInstant(late, at)).toEqual(at);
  });
});

describe('localDayRange', () => {
  it('is 23, 24 or 25 hours long and starts at the first valid instant', () => {
    expect(hours(localDayRange('2026-03-08', 'America/New_York'))).toBe(23);
    expect(hours(localDayRange('2026-11-01', 'America/New_York'))).toBe(25);
    expect(hours(localDayRange('2026-03-31', 'Asia/Kathmandu'))).toBe(24);
    const santiago = localDayRange('2026-09-06', 'America/Santiago');
    expect(iso(santiago.start)).toBe('2026-09-06T04:00:00.000Z');
    expect(hours(santiago)).toBe(23);
    expect(hours(localDayRange('2026-10-04', 'Australia/Lord_Howe'))).toBe(23.5);
  });
});
