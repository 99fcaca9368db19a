// The sandbox LinkedIn network: a deterministic stand-in for LinkedIn that a seat created with
// driver "sandbox" acts through. Every action is recorded (duplicates too - the simulation counts
// them); invitations are accepted and messages answered with seeded probabilities after seeded delays,
// invitations past a weekly limit are refused with LinkedIn's limit signal, and messages need a
// connection. The answers reach the engine as the same signals a real account's sync produces
// (sandbox-responder.ts). Same seed, same contacts, same clock: the same network behaviour.
import { sql } from 'kysely';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/database.js';
import { uniform } from '../../../lib/rng.js';
import { attachmentNames } from '../../attachments/attachment-files.js';
import type { ActionOutcome, ActionRequest, ChannelDriver, OutcomeCheck } from '../../channels/driver.js';

export type SandboxSettings = Config['sandbox'];

function responseDelayMs(settings: SandboxSettings, ...parts: Array<string | number>): number {
  const span = Math.max(0, settings.maxResponseSeconds - settings.minResponseSeconds);
  return Math.round((settings.minResponseSeconds + uniform('delay', settings.seed, ...parts) * span) * 1000);
}

export type SandboxDecision =
  | { outcome: ActionOutcome }
  | { record: { response: 'accept' | 'reply' | null; respondAt: Date | null } };

/** What the network knows about one sender: its connections and its invitations of the last 7 days. */
export type SandboxSenderState = { connected: Set<string>; pending: Set<string>; weekInvites: number };

/** The action as the network sees it. */
export type SandboxAction = { type: string; senderProfileUuid: string; leadUuid: string; at: Date };

/**
 * The network's answer to one action, updating `state` as if it was done (for the next in a batch).
 * Pure: the driver and the flow preview (src/modules/engine/preview) decide with the same code.
 */
export function decideSandboxAction(
  settings: SandboxSettings,
  action: SandboxAction,
  state: SandboxSenderState,
): SandboxDecision {
  const seed = settings.seed;
  const lead = action.leadUuid;
  const later = (kind: string) =>
    new Date(action.at.getTime() + responseDelayMs(settings, kind, action.senderProfileUuid, lead));
  switch (action.type) {
    case 'linkedin_send_connection_request': {
      if (state.connected.has(lead))
        return { outcome: { ok: false, reason: 'already_connected', message: 'Already connected.' } };
      if (state.pending.has(lead))
        return { outcome: { ok: false, reason: 'pending', message: 'An invitation is already pending.' } };
      if (state.weekInvites >= settings.weeklyInvitationLimit) {
        return {
          outcome: {
            ok: false,
            reason: 'weekly_limit',
            message: 'You have reached the weekly invitation limit.',
          },
        };
      }
      state.pending.add(lead);
      state.weekInvites += 1;
      const accepts = uniform('accept', seed, action.senderProfileUuid, lead) < settings.acceptRate;
      return {
        record: { response: accepts ? 'accept' : null, respondAt: accepts ? later('accept') : null },
      };
    }
    case 'linkedin_send_message': {
      if (!state.connected.has(lead)) {
        return {
          outcome: {
            ok: false,
            reason: 'not_connected',
            message: 'Messages need a connection; send an InMail instead.',
          },
        };
      }
      const replies = uniform('reply', seed, action.senderProfileUuid, lead) < settings.replyRate;
      return { record: { response: replies ? 'reply' : null, respondAt: replies ? later('reply') : null } };
    }
    case 'linkedin_send_inmail': {
      const replies = uniform('inmail', seed, action.senderProfileUuid, lead) < settings.replyRate;
      return { record: { response: replies ? 'reply' : null, respondAt: replies ? later('inmail') : null } };
    }
    case 'email_send_message':
      return {
        outcome: { ok: false, reason: 'no_channel', message: 'The sandbox network is LinkedIn only.' },
      };
    default:
      // Visits, likes, comments and endorsements always work in the sandbox.
      return { record: { response: null, respondAt: null } };
  }
}

async function loadState(
  db: Database,
  teamId: number,
  senderUuid: string,
  leads: string[],
  at: Date,
): Promise<SandboxSenderState> {
  const [links, week] = await Promise.all([
    sql<{ lead_uuid: string; connected: boolean }>`
      select lead_uuid, bool_or(response = 'accept' and responded_at is not null) as connected
      from sandbox_linkedin_actions
      where team_id = ${teamId} and sender_profile_uuid = ${senderUuid} and lead_uuid = any(${leads}::uuid[])
        and action = 'linkedin_send_connection_request' and coalesce(response, '') <> 'withdrawn'
      group by lead_uuid
    `.execute(db),
    sql<{ n: number }>`
      select count(*)::int as n from sandbox_linkedin_actions
      where team_id = ${teamId} and sender_profile_uuid = ${senderUuid}
        and action = 'linkedin_send_connection_request' and performed_at > ${new Date(at.getTime() - 7 * 86_400_000)}
    `.execute(db),
  ]);
  return {
    connected: new Set(links.rows.filter((r) => r.connected).map((r) => r.lead_uuid)),
    pending: new Set(links.rows.filter((r) => !r.connected).map((r) => r.lead_uuid)),
    weekInvites: week.rows[0]?.n ?? 0,
  };
}

/** A message or InMail with files (an invitation carries none). */
function carriesFiles(request: ActionRequest): boolean {
  return (
    (request.type === 'linkedin_send_message' || request.type === 'linkedin_send_inmail') &&
    request.attachments.length > 0
  );
}

export function createSandboxDriver(db: Database, settings: SandboxSettings): ChannelDriver {
  const decide = (request: ActionRequest, state: SandboxSenderState): SandboxDecision =>
    decideSandboxAction(
      settings,
      {
        type: request.type,
        senderProfileUuid: request.senderProfileUuid,
        leadUuid: request.lead.uuid,
        at: request.at,
      },
      state,
    );

  async function withdraw(request: ActionRequest): Promise<ActionOutcome> {
    const withdrawn = await sql`
      update sandbox_linkedin_actions set response = 'withdrawn', respond_at = null
      where team_id = ${request.teamId} and sender_profile_uuid = ${request.senderProfileUuid}
        and lead_uuid = ${request.lead.uuid} and action = 'linkedin_send_connection_request'
        and responded_at is null and coalesce(response, '') <> 'withdrawn'
    `.execute(db);
    if (Number(withdrawn.numAffectedRows ?? 0) === 0) {
      return { ok: false, reason: 'nothing_to_do', message: 'No pending invitation to withdraw.' };
    }
    return (await recordAll([request], [{ response: null, respondAt: null }]))[0]!;
  }

  /** Records the actions (one insert) and answers ok with their references. */
  async function recordAll(
    requests: ActionRequest[],
    records: Array<{ response: 'accept' | 'reply' | null; respondAt: Date | null }>,
    names: Map<string, string> = new Map(),
  ) {
    if (requests.length === 0) return [];
    const rows = await db
      .insertInto('sandbox_linkedin_actions')
      .values(
        requests.map((request, i) => ({
          team_id: request.teamId,
          sender_profile_uuid: request.senderProfileUuid,
          lead_uuid: request.lead.uuid,
          action: request.type,
          task_uuid: request.taskUuid,
          text: request.text,
          performed_at: request.at,
          response: records[i]!.response,
          respond_at: records[i]!.respondAt,
          attachment_names: carriesFiles(request)
            ? request.attachments.map((a) => names.get(a.uuid) ?? a.uuid)
            : null,
        })),
      )
      .returning(['id', 'task_uuid'])
      .execute();
    const idOf = new Map(rows.map((r) => [r.task_uuid, r.id]));
    return requests.map((request) => ({
      ok: true as const,
      remoteRef: `sandbox:${idOf.get(request.taskUuid)}`,
    }));
  }

  async function performMany(requests: ActionRequest[]): Promise<ActionOutcome[]> {
    const first = requests[0];
    if (!first) return [];
    const state = await loadState(
      db,
      first.teamId,
      first.senderProfileUuid,
      requests.map((r) => r.lead.uuid),
      first.at,
    );
    // The files sent with messages: one lookup of their names; a file deleted since is refused.
    const withFiles = requests.filter(carriesFiles);
    const names =
      withFiles.length > 0
        ? await attachmentNames(
            db,
            first.teamId,
            withFiles.flatMap((r) => r.attachments.map((a) => a.uuid)),
          )
        : new Map<string, string>();
    const outcomes: ActionOutcome[] = new Array(requests.length);
    const toRecord: number[] = [];
    const records: Array<{ response: 'accept' | 'reply' | null; respondAt: Date | null }> = [];
    for (const [i, request] of requests.entries()) {
      if (request.type === 'linkedin_withdraw_connection_request') {
        outcomes[i] = await withdraw(request);
        continue;
      }
      const gone = carriesFiles(request) ? request.attachments.find((a) => !names.has(a.uuid)) : undefined;
      if (gone) {
        outcomes[i] = {
          ok: false,
          reason: 'not_found',
          message: `The attachment ${gone.uuid} no longer exists.`,
        };
        continue;
      }
      const decision = decide(request, state);
      if ('outcome' in decision) outcomes[i] = decision.outcome;
      else {
        toRecord.push(i);
        records.push(decision.record);
      }
    }
    const recorded = await recordAll(
      toRecord.map((i) => requests[i]!),
      records,
      names,
    );
    toRecord.forEach((i, k) => {
      outcomes[i] = recorded[k]!;
    });
    return outcomes;
  }

  return {
    name: 'sandbox',
    async perform(request) {
      return (await performMany([request]))[0]!;
    },
    performMany,
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
