// How much a sender profile may do per action type and day: safe defaults, the profile's overrides, a
// rolling-week cap for connection requests, and the warm-up ramp ("smart limits") for new accounts.
// Pure functions of the profile and a local date; the engine calls them when it plans a step, and the
// task timeline shows the same numbers. The defaults and maxima are the channels' (channel-specs.ts). The figures and the reasoning are in the README ("Sender
// limits").
import { daysBetween, localDate } from '../../lib/schedule.js';
import { CHANNEL_SPECS } from '../channels/channel-specs.js';

/** The channels' default limits (channels/channel-specs.ts), by action type, in the API's order. */
const SPEC_LIMITS = { ...CHANNEL_SPECS.linkedin.limits, ...CHANNEL_SPECS.email.limits };

/** Actions a sender does on a channel, each with its own daily limit. */
export type SenderActionType = keyof typeof SPEC_LIMITS;
export const SENDER_ACTION_TYPES = Object.keys(SPEC_LIMITS) as readonly SenderActionType[];

/** Actions that also have a cap over a rolling week (LinkedIn counts invitations per week). */
export type WeeklyLimitedActionType = {
  [K in SenderActionType]: (typeof SPEC_LIMITS)[K] extends { weekly: object } ? K : never;
}[SenderActionType];
export const WEEKLY_LIMITED_ACTION_TYPES = SENDER_ACTION_TYPES.filter(
  (type) => 'weekly' in SPEC_LIMITS[type],
) as readonly WeeklyLimitedActionType[];

export type DailyLimits = Record<SenderActionType, number>;
export type WeeklyLimits = Record<WeeklyLimitedActionType, number>;

function perType<K extends SenderActionType>(
  types: readonly K[],
  value: (type: K) => number,
): Record<K, number> {
  return Object.fromEntries(types.map((type) => [type, value(type)])) as Record<K, number>;
}

const weeklyOf = (type: WeeklyLimitedActionType) => SPEC_LIMITS[type].weekly;

/** Per local day (the figures and their sources are in the channel specs). */
export const DEFAULT_DAILY_LIMITS: Readonly<DailyLimits> = perType(
  SENDER_ACTION_TYPES,
  (t) => SPEC_LIMITS[t].daily,
);

/** Per rolling 7 days. */
export const DEFAULT_WEEKLY_LIMITS: Readonly<WeeklyLimits> = perType(
  WEEKLY_LIMITED_ACTION_TYPES,
  (t) => weeklyOf(t).default,
);

/** The most an override may ask for: above these, accounts get restricted or blocked by the provider. */
export const MAX_DAILY_LIMITS: Readonly<DailyLimits> = perType(
  SENDER_ACTION_TYPES,
  (t) => SPEC_LIMITS[t].maxDaily,
);
export const MAX_WEEKLY_LIMITS: Readonly<WeeklyLimits> = perType(
  WEEKLY_LIMITED_ACTION_TYPES,
  (t) => weeklyOf(t).max,
);

/**
 * The warm-up ramp: the share of each daily limit a profile with smart limits may use in its first
 * weeks, counted in local days from the day it was created (day 0). A quarter in week one, half in
 * week two, three quarters in week three, everything from day 21 on - connection requests go
 * 5, 10, 15, 20 a day with the defaults, like the first tiers of the hosted service's ramp.
 */
export const WARM_UP_STEPS: ReadonlyArray<{ fromDay: number; share: number }> = [
  { fromDay: 0, share: 0.25 },
  { fromDay: 7, share: 0.5 },
  { fromDay: 14, share: 0.75 },
  { fromDay: 21, share: 1 },
];

/** What the limits of a profile depend on (a sender_profiles row has all of it). */
export type SenderLimitSettings = {
  /** Daily overrides by action type; missing types use the defaults. */
  limits: Partial<Record<string, number>>;
  /** Rolling-week overrides. */
  weekly_limits: Partial<Record<string, number>>;
  smart_limits_enabled: boolean;
  created_at: Date;
  /** The profile's schedule zone: its days are local days there. */
  schedule: { timezone: string };
};

function override(value: unknown, max: number): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? Math.min(value, max)
    : undefined;
}

/** The profile's daily targets: its overrides over the defaults (before any warm-up). */
export function dailyTargets(settings: Pick<SenderLimitSettings, 'limits'>): DailyLimits {
  const targets = { ...DEFAULT_DAILY_LIMITS };
  for (const type of SENDER_ACTION_TYPES) {
    targets[type] = override(settings.limits[type], MAX_DAILY_LIMITS[type]) ?? DEFAULT_DAILY_LIMITS[type];
  }
  return targets;
}

/** The profile's rolling-week caps: its overrides over the defaults. */
export function weeklyTargets(settings: Pick<SenderLimitSettings, 'weekly_limits'>): WeeklyLimits {
  const targets = { ...DEFAULT_WEEKLY_LIMITS };
  for (const type of WEEKLY_LIMITED_ACTION_TYPES) {
    targets[type] =
      override(settings.weekly_limits[type], MAX_WEEKLY_LIMITS[type]) ?? DEFAULT_WEEKLY_LIMITS[type];
  }
  return targets;
}

/** The profile's age in local days on `isoDate` (0 on the day it was created, never negative). */
export function warmUpDay(settings: Pick<SenderLimitSettings, 'created_at' | 'schedule'>, isoDate: string) {
  return Math.max(0, daysBetween(localDate(settings.created_at, settings.schedule.timezone), isoDate));
}

/** The share of its daily limits a profile may use on `isoDate` (1 without smart limits). */
export function warmUpShare(
  settings: Pick<SenderLimitSettings, 'smart_limits_enabled' | 'created_at' | 'schedule'>,
  isoDate: string,
): number {
  if (!settings.smart_limits_enabled) return 1;
  const day = warmUpDay(settings, isoDate);
  let share = WARM_UP_STEPS[0]!.share;
  for (const step of WARM_UP_STEPS) if (day >= step.fromDay) share = step.share;
  return share;
}

/**
 * How many actions of `type` the profile may do on the local date `isoDate` (in its schedule's zone):
 * its target, scaled down by the warm-up ramp while smart limits are on and the profile is young
 * (rounded up, so a limit above 0 never ramps to 0). The rolling-week cap is separate: see
 * `weeklyLimit` and `remainingCapacity`.
 */
export function effectiveDailyLimit(
  settings: SenderLimitSettings,
  type: SenderActionType,
  isoDate: string,
): number {
  const target = dailyTargets(settings)[type];
  return Math.ceil(target * warmUpShare(settings, isoDate));
}

/** `effectiveDailyLimit` of every action type. */
export function effectiveDailyLimits(settings: SenderLimitSettings, isoDate: string): DailyLimits {
  const share = warmUpShare(settings, isoDate);
  const targets = dailyTargets(settings);
  const limits = { ...targets };
  for (const type of SENDER_ACTION_TYPES) limits[type] = Math.ceil(targets[type] * share);
  return limits;
}

/** The rolling-week cap of `type`, or null when the type has none. */
export function weeklyLimit(
  settings: Pick<SenderLimitSettings, 'weekly_limits'>,
  type: SenderActionType,
): number | null {
  return isWeeklyLimited(type) ? weeklyTargets(settings)[type] : null;
}

export function isWeeklyLimited(type: string): type is WeeklyLimitedActionType {
  return (WEEKLY_LIMITED_ACTION_TYPES as readonly string[]).includes(type);
}

export function isSenderActionType(type: string): type is SenderActionType {
  return (SENDER_ACTION_TYPES as readonly string[]).includes(type);
}

/**
 * What is left of a day's capacity: the daily limit minus what was used that local day, and for
 * weekly-limited types also no more than the week's cap minus what the last 7 local days (that day
 * included) used. Never negative.
 */
export function remainingCapacity(limits: {
  daily: number;
  usedToday: number;
  weekly?: number | null;
  usedThisWeek?: number;
}): number {
  let remaining = limits.daily - limits.usedToday;
  if (limits.weekly !== undefined && limits.weekly !== null) {
    remaining = Math.min(remaining, limits.weekly - (limits.usedThisWeek ?? 0));
  }
  return Math.max(0, remaining);
}
