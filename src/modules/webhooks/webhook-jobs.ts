// The job types of webhook delivery, kept apart from their handlers. The fan-out job that starts it is
// the events module's (events.jobs.ts): recording events enqueues it, this module handles it.
import { Type } from 'typebox';
import { jobType } from '../../jobs/queue.js';

/** Deliveries one job attempts together (concurrently, recorded in one statement). */
export const DELIVERY_BATCH = 50;

/**
 * Makes the given attempt of each listed delivery. HTTP failures do not fail the job: they are
 * recorded and the next attempt is enqueued on the retry schedule. The job itself is retried (by the
 * queue) only when the database is unreachable; an attempt already recorded is never recorded twice.
 */
export const deliverWebhooksJob = jobType(
  'webhooks.deliver',
  Type.Object({
    teamId: Type.Integer(),
    deliveries: Type.Array(
      Type.Object({ uuid: Type.String({ format: 'uuid' }), attempt: Type.Integer({ minimum: 1 }) }),
      { minItems: 1, maxItems: DELIVERY_BATCH },
    ),
  }),
  { maxAttempts: 10 },
);
