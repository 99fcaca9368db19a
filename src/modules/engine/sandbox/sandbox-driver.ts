// The sandbox LinkedIn network: a deterministic stand-in for LinkedIn that a seat created with
// driver "sandbox" acts through. Every action is recorded (duplicates too - the simulation counts
// them); invitations are accepted and messages answered with seeded probabilities after seeded delays,
// invitations past a weekly limit are refused with LinkedIn's limit signal, and messages need a
// connection. The answers reach the engine as the same signals a real account's sync produces
// (sandbox-responder.ts). Same seed, same contacts, same clock: the same network behaviour.
import { sql } from 'kysely';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import type { ActionOutcome, ActionRequest, ChannelDriver, OutcomeCheck } from '../drivers/driver.js';
import { uniform } from '../rng.js';

export type SandboxSettings = Config['sandbox'];

function responseDelayMs(settings: SandboxSettings, ...parts: Array<string | number>): number {
  const span = Math.max(0, settings.maxResponseSeconds - settings.minResponseSeconds);
  return Math.round((settings.minResponseSeconds + uniform('delay', settings.seed, ...parts) * span) * 1000);
}

export function createSandboxDriver(db: Database, settings: SandboxSettings): ChannelDriver {
  async function connection(request: ActionRequest) {
    const rows = await sql<{ response: string | null; responded: boolean }>`
      select response, responded_at is not null as responded from sandbox_linkedin_actions
      where team_id = ${request.teamId} and sender_profile_uuid = ${request.senderProfileUuid}
        and lead_uuid = ${request.lead.uuid} and action = 'linkedin_send_connection_request'
    `.execute(db);
    if (rows.rows.some((r) => r.response === 'accept' && r.responded)) return 'connected' as const;
    if (rows.rows.some((r) => r.response !== 'withdrawn')) return 'pending' as const;
    return 'none' as const;
  }

  async function record(request: ActionRequest, response: 'accept' | 'reply' | null, respondAt: Date | null) {
    const row = await db
      .insertInto('sandbox_linkedin_actions')
      .values({
        team_id: request.teamId,
        sender_profile_uuid: request.senderProfileUuid,
        lead_uuid: request.lead.uuid,
        action: request.type,
        task_uuid: request.taskUuid,
        text: request.text,
        performed_at: request.at,
        response,
        respond_at: respondAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ok: true as const, remoteRef: `sandbox:${row.id}` };
  }

  const later = (request: ActionRequest, kind: string) =>
    new Date(
      request.at.getTime() + responseDelayMs(settings, kind, request.senderProfileUuid, request.lead.uuid),
    );

  return {
    name: 'sandbox',
    async perform(request): Promise<ActionOutcome> {
      const seed = settings.seed;
      switch (request.type) {
        case 'linkedin_send_connection_request': {
          const state = await connection(request);
          if (state === 'connected')
            return { ok: false, reason: 'already_connected', message: 'Already connected.' };
          if (state === 'pending')
            return { ok: false, reason: 'pending', message: 'An invitation is already pending.' };
          const week = await sql<{ n: number }>`
            select count(*)::int as n from sandbox_linkedin_actions
            where team_id = ${request.teamId} and sender_profile_uuid = ${request.senderProfileUuid}
              and action = 'linkedin_send_connection_request'
              and performed_at > ${new Date(request.at.getTime() - 7 * 86_400_000)}
          `.execute(db);
          if ((week.rows[0]?.n ?? 0) >= settings.weeklyInvitationLimit) {
            return {
              ok: false,
              reason: 'weekly_limit',
              message: 'You have reached the weekly invitation limit.',
            };
          }
          const accepts =
            uniform('accept', seed, request.senderProfileUuid, request.lead.uuid) < settings.acceptRate;
          return record(request, accepts ? 'accept' : null, accepts ? later(request, 'accept') : null);
        }
        case 'linkedin_send_message': {
          if ((await connection(request)) !== 'connected') {
            return {
              ok: false,
              reason: 'not_connected',
              message: 'Messages need a connection; send an InMail instead.',
            };
          }
          const replies =
            uniform('reply', seed, request.senderProfileUuid, request.lead.uuid) < settings.replyRate;
          return record(request, replies ? 'reply' : null, replies ? later(request, 'reply') : null);
        }
        case 'linkedin_send_inmail': {
          const replies =
            uniform('inmail', seed, request.senderProfileUuid, request.lead.uuid) < settings.replyRate;
          return record(request, replies ? 'reply' : null, replies ? later(request, 'inmail') : null);
        }
        case 'linkedin_withdraw_connection_request': {
          const withdrawn = await sql`
            update sandbox_linkedin_actions set response = 'withdrawn', respond_at = null
            where team_id = ${request.teamId} and sender_profile_uuid = ${request.senderProfileUuid}
              and lead_uuid = ${request.lead.uuid} and action = 'linkedin_send_connection_request'
              and responded_at is null and coalesce(response, '') <> 'withdrawn'
          `.execute(db);
          if (Number(withdrawn.numAffectedRows ?? 0) === 0) {
            return { ok: false, reason: 'nothing_to_do', message: 'No pending invitation to withdraw.' };
          }
          return record(request, null, null);
        }
        case 'email_send_message':
          return { ok: false, reason: 'no_channel', message: 'The sandbox network is LinkedIn only.' };
        default:
          // Visits, likes, comments and endorsements always work in the sandbox.
          return record(request, null, null);
      }
    },
    async checkOutcome(request): Promise<OutcomeCheck> {
      // The sandbox is the remote truth: it knows exactly whether it acted.
      const row = await db
        .selectFrom('sandbox_linkedin_actions')
        .select('id')
        .where('team_id', '=', request.teamId)
        .where('task_uuid', '=', request.taskUuid)
        .executeTakeFirst();
      return row ? 'done' : 'not_done';
    },
  };
}
