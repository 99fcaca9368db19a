/** Time comes from here so schedules and retries can be tested on fixed dates. */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told: tests and the simulation run days of automation in seconds. */
export function manualClock(start: Date) {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set(at: Date) {
      current = new Date(at);
    },
    advance(ms: number) {
      current = new Date(current.getTime() + ms);
    },
  };
}

export type ManualClock = ReturnType<typeof manualClock>;
