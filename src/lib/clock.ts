/** Time comes from here so schedules and retries can be tested on fixed dates. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
