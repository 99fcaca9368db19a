// Jobs of LinkedIn messages: sending one queued message (a job per message, in a queue per sender so a
// sender's sends run one at a time), and the inbox sync round every minute.
import type { Logger } from 'pino';
import { Type } from 'typebox';
import type { Executor } from '../../db/database.js';
import { enqueueJob, handleJob, jobType } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { processQueuedMessage } from './linkedin-send.js';
import { type SyncDeps, syncDueSeats } from './linkedin-sync.js';

export const sendLinkedInMessageJob = jobType(
  'linkedinMessages.send',
  Type.Object({ team_id: Type.Integer(), uuid: Type.String() }),
  { maxAttempts: 5 },
);

export const syncLinkedInInboxesJob = jobType('linkedinMessages.syncInboxes', Type.Object({}), {
  schedule: '* * * * *',
  maxAttempts: 1,
});

export async function enqueueSend(
  db: Executor,
  message: { team_id: number; uuid: string; sender_profile_uuid: string },
  runAt?: Date,
) {
  await enqueueJob(
    db,
    sendLinkedInMessageJob,
    { team_id: message.team_id, uuid: message.uuid },
    { queueName: `linkedin-sender:${message.sender_profile_uuid}`, ...(runAt ? { runAt } : {}) },
  );
}

export function linkedInMessageJobHandlers(deps: Omit<SyncDeps, 'log'> & { clock: Clock; log?: Logger }) {
  const withLog = (log: Logger): SyncDeps => ({ ...deps, log: deps.log ?? log });
  return [
    handleJob(sendLinkedInMessageJob, async (payload, { log }) => {
      const result = await processQueuedMessage(
        withLog(log),
        payload.team_id,
        payload.uuid,
        deps.clock.now(),
      );
      if (result.retryAt) {
        const message = await deps.db
          .selectFrom('linkedin_messages')
          .select(['team_id', 'uuid', 'sender_profile_uuid'])
          .where('team_id', '=', payload.team_id)
          .where('uuid', '=', payload.uuid)
          .executeTakeFirst();
        if (message) await enqueueSend(deps.db, message, result.retryAt);
      }
    }),
    handleJob(syncLinkedInInboxesJob, async (_payload, { log }) => {
      await syncDueSeats(withLog(log), deps.clock.now());
    }),
  ];
}
