import { describe, expect, it } from 'vitest';
import { defaultSchedule, isValidTimeZone, scheduleProblems } from './schedule.js';

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
