// The job recording events enqueues (emit.ts): the webhooks module handles it (webhooks/fan-out.ts),
// so the events module knows nothing of deliveries. The name keeps its historical 'webhooks.' prefix:
// queued jobs of an older version still run.
import { Type } from 'typebox';
import { jobType } from '../../jobs/queue.js';

/** Turns one batch of recorded events into deliveries, a chunk at a time (`after` = last event done). */
export const fanOutEventsJob = jobType(
  'webhooks.fanOutEvents',
  Type.Object({
    teamId: Type.Integer(),
    batch: Type.String({ format: 'uuid' }),
    after: Type.Optional(Type.String({ format: 'uuid' })),
  }),
  { maxAttempts: 25 },
);
