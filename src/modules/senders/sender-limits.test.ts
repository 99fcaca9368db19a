import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DAILY_LIMITS,
  dailyTargets,
  effectiveDailyLimit,
  effectiveDailyLimits,
  remainingCapacity,
  type SenderLimitSettings,
  warmUpDay,
  weeklyLimit,
} from './sender-limits.js';

function sender(overrides: Partial<SenderLimitSettings> = {}): SenderLimitSettings {
  return {
    limits: {},
    weekly_limits: {},
    smart_limits_enabled: false,
    // 2026-03-01 23:30 in New York (already 2026-03-02 in UTC).
    created_at: new Date('2026-03-02T04:30:00Z'),
    schedule: { timezone: 'America/New_York' },
    ...overrides,
  };
}

describe('sender limits', () => {
  it('default to the published safe figures', () => {
    expect(effectiveDailyLimits(sender(), '2026-03-02')).toEqual(DEFAULT_DAILY_LIMITS);
    expect(DEFAULT_DAILY_LIMITS.linkedin_send_connection_request).toBe(20);
    expect(DEFAULT_DAILY_LIMITS.linkedin_send_message).toBe(40);
    expect(DEFAULT_DAILY_LIMITS.linkedin_send_inmail).toBe(10);
    expect(DEFAULT_DAILY_LIMITS.linkedin_visit_profile).toBe(50);
    expect(weeklyLimit(sender(), 'linkedin_send_connection_request')).toBe(100);
    expect(weeklyLimit(sender(), 'linkedin_send_message')).toBeNull();
  });

  it('take the profile\u2019s overrides, 0 included, and ignore junk', () => {
    const settings = sender({
      limits: { linkedin_send_message: 25, linkedin_send_inmail: 0, linkedin_visit_profile: -3 },
      weekly_limits: { linkedin_send_connection_request: 60 },
    });
    const targets = dailyTargets(settings);
    expect(targets.linkedin_send_message).toBe(25);
    expect(targets.linkedin_send_inmail).toBe(0);
    expect(targets.linkedin_visit_profile).toBe(50);
    expect(weeklyLimit(settings, 'linkedin_send_connection_request')).toBe(60);
  });

  it('never exceed the maxima, whatever is stored', () => {
    const settings = sender({ limits: { linkedin_send_connection_request: 5000 } });
    expect(effectiveDailyLimit(settings, 'linkedin_send_connection_request', '2026-03-10')).toBe(100);
  });

  it('count warm-up days in the profile\u2019s zone from the day it was created', () => {
    // Created on 2026-03-01 local (New York), although 2026-03-02 in UTC.
    expect(warmUpDay(sender(), '2026-03-01')).toBe(0);
    expect(warmUpDay(sender(), '2026-03-08')).toBe(7);
    expect(warmUpDay(sender(), '2026-02-20')).toBe(0);
  });

  it('ramp up weekly with smart limits: a quarter, half, three quarters, all', () => {
    const settings = sender({ smart_limits_enabled: true });
    const cr = (date: string) => effectiveDailyLimit(settings, 'linkedin_send_connection_request', date);
    expect(
      ['2026-03-01', '2026-03-07', '2026-03-08', '2026-03-15', '2026-03-21', '2026-03-22'].map(cr),
    ).toEqual([5, 5, 10, 15, 15, 20]);
    // Rounded up: 10 InMails a quarter at a time is 3, never 0.
    expect(effectiveDailyLimit(settings, 'linkedin_send_inmail', '2026-03-01')).toBe(3);
    // An override of 0 stays 0.
    const off = sender({ smart_limits_enabled: true, limits: { linkedin_send_inmail: 0 } });
    expect(effectiveDailyLimit(off, 'linkedin_send_inmail', '2026-03-01')).toBe(0);
    // Without smart limits a new profile has the full limits from day 0.
    expect(effectiveDailyLimit(sender(), 'linkedin_send_connection_request', '2026-03-01')).toBe(20);
  });

  it('ramp an override the same way', () => {
    const settings = sender({ smart_limits_enabled: true, limits: { linkedin_send_message: 80 } });
    expect(effectiveDailyLimit(settings, 'linkedin_send_message', '2026-03-09')).toBe(40);
  });

  it('leave no negative capacity and respect the rolling week', () => {
    expect(remainingCapacity({ daily: 20, usedToday: 5 })).toBe(15);
    expect(remainingCapacity({ daily: 20, usedToday: 25 })).toBe(0);
    expect(remainingCapacity({ daily: 20, usedToday: 5, weekly: 100, usedThisWeek: 92 })).toBe(8);
    expect(remainingCapacity({ daily: 20, usedToday: 5, weekly: null, usedThisWeek: 92 })).toBe(15);
  });
});
