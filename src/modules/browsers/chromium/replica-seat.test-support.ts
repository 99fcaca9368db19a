// Test support: a logged-in chromium seat on the LinkedIn replica - a sender, its running seat with the
// replica session stored as the login live view stores it, and a browser pool in a temporary profile
// directory (one browser, every context under the loopback guard). `close` ends the pool and the directory.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeSender } from '../../../../test/automation-factories.js';
import type { TestContext } from '../../../../test/harness.js';
import type { Replica } from '../../../../test/linkedin-replica/replica.js';
import { secretBoxOf } from '../../../deps.js';
import type { ActionRequest, ActionType } from '../../channels/driver.js';
import { saveSession } from '../seat-session.js';
import { createSeatBrowsers, type SeatBrowsers } from './seat-browsers.js';
import type { guardLoopback } from './test-guard.js';

export type ReplicaSeat = {
  browsers: SeatBrowsers;
  teamId: number;
  senderUuid: string;
  seatId: number;
  /** The replica session (`li_at`) the seat holds. */
  token: string;
  /** Where the seat saves the pages it did not understand. */
  pageDumpsDir: string;
  close(): Promise<void>;
};

export async function openReplicaSeat(
  ctx: TestContext,
  replica: Replica,
  guard: ReturnType<typeof guardLoopback>,
  options: { account?: string; seatCreatedAt?: Date } = {},
): Promise<ReplicaSeat> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'leadflow-li-'));
  const box = secretBoxOf(ctx.config);
  const browsers = createSeatBrowsers({
    config: {
      // Page dumps go to the temporary directory too (removed by close).
      linkedin: { ...ctx.config.linkedin, maxOpenBrowsers: 1, pageDumpsDir: path.join(dataDir, 'pages') },
    },
    db: ctx.db,
    secretBox: box,
    onContext: guard.install,
  });
  const { teamId } = await ctx.createUser();
  const sender = await makeSender(ctx.db, teamId);
  const seat = await ctx.db
    .insertInto('linkedin_browsers')
    .values({
      team_id: teamId,
      sender_profile_uuid: sender.uuid,
      driver: 'chromium',
      status: 'running',
      ...(options.seatCreatedAt ? { created_at: options.seatCreatedAt } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const token = replica.signIn(options.account ?? 'sam-sender');
  await saveSession(ctx.db, box, teamId, seat.id, replica.sessionOf(token), new Date());
  return {
    browsers,
    teamId,
    senderUuid: sender.uuid,
    seatId: seat.id,
    token,
    pageDumpsDir: path.join(dataDir, 'pages'),
    async close() {
      await browsers.closeAll();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type RequestFields = Partial<Pick<ActionRequest, 'text' | 'subject' | 'options'>>;

/** An action of the seat's sender on the replica profile `slug` (its vanity), asked for a second ago. */
export function replicaActionRequest(
  seat: { teamId: number; senderUuid: string },
  type: ActionType,
  slug: string,
  fields: RequestFields = {},
): ActionRequest {
  return {
    teamId: seat.teamId,
    taskUuid: `task-${Math.random()}`,
    type,
    senderProfileUuid: seat.senderUuid,
    lead: {
      uuid: `lead-${slug}`,
      first_name: null,
      last_name: null,
      name: null,
      ln_member_id: null,
      ln_id: null,
      sn_id: null,
      linkedin: slug,
      work_email: null,
      personal_email: null,
    },
    text: fields.text ?? null,
    subject: fields.subject ?? null,
    attachments: [],
    options: fields.options ?? {},
    at: new Date(Date.now() - 1000),
  };
}
