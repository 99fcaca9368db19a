// Never twice: the one implementation every outside action goes through - the flows' tasks (the
// dispatcher, dispatch.ts) and the LinkedIn messages queued by hand (linkedin-messages/linkedin-send.ts).
//
// 1. Intent: the caller's `take` commits the records it takes (a task's taken_to_execute_at, a message's
//    in_progress). Nothing is sent before this commits, and nothing of a record not taken.
// 2. The driver acts, with no transaction open. A driver that throws does not know whether it acted: that
//    action has no outcome and the burst stops.
// 3. Outcome: the caller's `record` commits what the channel answered, for the actions that have one.
//
// An action left without an outcome (a crash between 1 and 3, a throw, an `unconfirmed` answer) is only
// settled by `askOutcome` once nobody can still be acting on it: the channel's `checkOutcome`, never a
// second attempt on a guess.
import type { Logger } from 'pino';
import type {
  ActionOutcome,
  ActionRequest,
  Channel,
  ChannelDriver,
  DriverRegistry,
  OutcomeCheck,
} from '../../channels/driver.js';

export type CrashPoint = 'after_claim' | 'after_intent' | 'after_perform' | 'after_record';

export type OnceItem<T> = { id: string; item: T; request: ActionRequest };

export type OnceResult<T> = { item: T; request: ActionRequest; outcome: ActionOutcome };

export type OnceSteps<T, E> = {
  /** The intent commit: the ids of the items taken. */
  take(items: T[]): Promise<Set<string>>;
  /** The outcome commit, of the taken items the channel answered for (possibly none). */
  record(results: OnceResult<T>[]): Promise<E>;
  /** Simulation only: throws at the named point to emulate a process killed there. */
  crashPoint?: (point: CrashPoint) => void;
};

export type Sent<T, E> = {
  /** The items taken, in order. */
  taken: T[];
  /** The channel's answer for each taken item; `unknown` (or missing: the burst stopped) has no outcome. */
  outcomes: Array<ActionOutcome | 'unknown'>;
  /** What `record` returned. */
  recorded: E;
  /** Some taken item has no outcome: it stays taken for the outcome check. */
  unsettled: boolean;
};

/** The driver's outcomes, in order; `unknown` where it does not know whether it acted. */
async function performAll(
  driver: ChannelDriver,
  requests: ActionRequest[],
  log: Logger,
): Promise<Array<ActionOutcome | 'unknown'>> {
  if (driver.performMany && requests.length > 1) {
    try {
      return await driver.performMany(requests);
    } catch (error) {
      log.error({ err: error, tasks: requests.map((r) => r.taskUuid) }, 'channel driver failed mid-batch');
      return requests.map(() => 'unknown');
    }
  }
  const outcomes: Array<ActionOutcome | 'unknown'> = [];
  for (const request of requests) {
    try {
      outcomes.push(await driver.perform(request));
    } catch (error) {
      // The driver does not know whether it acted: leave the intent for the outcome check, stop the burst.
      log.error({ err: error, task: request.taskUuid }, 'channel driver failed mid-action');
      outcomes.push('unknown');
      break;
    }
  }
  return outcomes;
}

/** Sends `items` at most once each (see above); null when none was taken. */
export async function sendOnce<T, E>(
  driver: ChannelDriver,
  items: OnceItem<T>[],
  steps: OnceSteps<T, E>,
  log: Logger,
): Promise<Sent<T, E> | null> {
  const ids = await steps.take(items.map((i) => i.item));
  if (ids.size === 0) return null;
  steps.crashPoint?.('after_intent');
  const batch = items.filter((i) => ids.has(i.id));
  const outcomes = await performAll(
    driver,
    batch.map((i) => i.request),
    log,
  );
  steps.crashPoint?.('after_perform');
  const known = outcomes.flatMap((outcome, i) =>
    outcome === 'unknown' ? [] : [{ item: batch[i]!.item, request: batch[i]!.request, outcome }],
  );
  const recorded = await steps.record(known);
  steps.crashPoint?.('after_record');
  return {
    taken: batch.map((i) => i.item),
    outcomes,
    recorded,
    unsettled: outcomes.length < batch.length || outcomes.includes('unknown'),
  };
}

/**
 * Asks the sender's channel whether an action without an outcome happened: `unknown` when the channel
 * cannot tell (no seat, the contact gone, the check failed); `busyUntil` when someone holds the seat's
 * live view (ask again then rather than give up).
 */
export async function askOutcome(
  deps: { drivers: DriverRegistry; log: Logger },
  at: { teamId: number; senderProfileUuid: string; channel: Channel },
  request: () => Promise<ActionRequest | null | undefined>,
): Promise<OutcomeCheck | { busyUntil: Date }> {
  const driver = await deps.drivers.resolve(at.teamId, at.senderProfileUuid, at.channel);
  if ('busyUntil' in driver) return { busyUntil: driver.busyUntil };
  if ('unavailable' in driver) return 'unknown';
  const asked = await request();
  if (!asked) return 'unknown';
  try {
    return await driver.checkOutcome(asked);
  } catch (error) {
    deps.log.warn({ err: error, task: asked.taskUuid }, 'outcome check failed');
    return 'unknown';
  }
}
