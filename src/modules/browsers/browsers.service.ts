// LinkedIn seats: a seat binds a sender to a driver (a real browser or the sandbox network), carries
// its proxy, its sealed LinkedIn session and its public login link. Only a running seat acts; creating
// or running one resumes the sender's enrollments parked for want of it.
import type { Static } from 'typebox';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { BlockedTargetError, type OutboundGuard } from '../../lib/net/outbound.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import type { SecretBox } from '../../lib/secrets.js';
import { resumeSenderActions } from '../enrollments/sender-pauses.js';
import { ACCESS_KEY_TTL_MS, generateAccessKey } from './access-keys.js';
import * as repo from './browsers.repository.js';
import type { CreateSeatBody, SetProxyBody, ShareSeatBody, UpdateSeatBody } from './browsers.schemas.js';
import { SEAT_SORT } from './browsers.sort.js';
import { presentHealth } from './seat-health.js';
import { presentInvitations } from './seat-notes.js';
import { presentProxies, proxyColumns } from './seat-proxy.js';

type Actor = { teamId: number; userId: number };

/** What runs seats' browsers in this process (the Chromium pool); the service tells it when to let go. */
export type SeatRuntime = {
  /** Closes this process's browser of the seat, if open, and wipes its local profile. */
  release(teamId: number, seatId: number): Promise<void>;
  /** Why Chromium cannot start here (logged), or undefined when it can. */
  startProblem?(): Promise<string | undefined>;
};

export function presentSeat(row: repo.SeatRecord, now: Date = new Date()) {
  return {
    id: row.id,
    team_id: row.team_id,
    sender_profile_uuid: row.sender_profile_uuid,
    linkedin_account_uuid: row.linkedin_account_uuid,
    external_id: row.external_id,
    driver: row.driver,
    name: row.name,
    shared_emails: row.shared_emails,
    linkedin_automation_server_id: null,
    linkedin_proxy_id: null,
    proxy_country_code: row.proxy_country_code,
    custom_proxy_config: presentProxies(row),
    schedule: row.schedule ?? null,
    linkedin_login: null,
    linkedin_password: null,
    ln_code: null,
    browser_owner: 'customer',
    status: row.status,
    error_reason: row.error_reason,
    selector_health: presentHealth(row),
    invitations: presentInvitations(row, now),
    user_id: row.user_id,
    last_start_at: row.last_start_at,
    external_access_key_expires_at: row.access_key_expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

type ProxyFields = Static<typeof SetProxyBody>;

/** The columns an `invitations` change writes (keys left out keep their value). */
function invitationColumns(input: Static<typeof UpdateSeatBody>['invitations']) {
  return {
    ...(input?.premium !== undefined ? { linkedin_premium: input.premium } : {}),
    ...(input?.note_quota !== undefined ? { note_quota_action: input.note_quota } : {}),
    ...(input?.free_notes_per_month !== undefined
      ? { free_notes_per_month: input.free_notes_per_month }
      : {}),
  };
}

export function createBrowsersService(deps: {
  db: Database;
  clock: Clock;
  box: SecretBox;
  /** Base URL of public links (LEADFLOW_PUBLIC_URL). */
  publicUrl: string;
  runtime?: SeatRuntime;
  /** Checks a seat's proxy host (a user can aim Chromium's connections at it). */
  proxyGuard: OutboundGuard;
}) {
  const { db, clock, box } = deps;

  async function requireSeat(teamId: number, id: number) {
    const seat = await repo.selectSeat(db, teamId, id);
    if (!seat) throw notFound('Seat');
    return seat;
  }

  /**
   * The columns a proxy change writes (named, never the body); bumps the version so browsers restart.
   * A proxy host the outbound guard refuses is a 422 (the browser checks it again when it starts).
   */
  async function proxyChange(input: ProxyFields) {
    const proxy = proxyColumns(input.custom_proxy_config, box);
    const host = [input.custom_proxy_config].flat()[0]?.host;
    if (proxy && host) {
      try {
        await deps.proxyGuard.check(host);
      } catch (error) {
        if (!(error instanceof BlockedTargetError)) throw error;
        throw invalidField('custom_proxy_config.host', `custom_proxy_config.host: ${error.message}`);
      }
    }
    return {
      ...(input.proxy_country_code !== undefined
        ? { proxy_country_code: input.proxy_country_code?.toUpperCase() ?? null }
        : {}),
      ...(proxy ?? {}),
    };
  }

  async function updateColumns(
    teamId: number,
    id: number,
    columns: Record<string, unknown> & { restart?: boolean },
  ) {
    const { restart, ...set } = columns;
    await requireSeat(teamId, id);
    await db
      .updateTable('linkedin_browsers')
      .set((eb) => ({
        ...set,
        ...(restart ? { session_version: eb('session_version', '+', 1) } : {}),
        updated_at: clock.now(),
      }))
      .where('team_id', '=', teamId)
      .where('id', '=', id)
      .execute();
    if (restart) await deps.runtime?.release(teamId, id);
    return presentSeat(await requireSeat(teamId, id), clock.now());
  }

  return {
    async createSeat(actor: Actor, input: Static<typeof CreateSeatBody>) {
      const proxy = await proxyChange(input);
      const driver = input.driver ?? 'chromium';
      const startProblem = driver === 'chromium' ? await deps.runtime?.startProblem?.() : undefined;
      const id = await db.transaction().execute(async (trx) => {
        const sender = await trx
          .selectFrom('sender_profiles')
          .select(['uuid', 'linkedin_browser_id'])
          .where('team_id', '=', actor.teamId)
          .where('uuid', '=', input.sender_profile_uuid)
          .forUpdate()
          .executeTakeFirst();
        if (!sender) {
          throw invalidField(
            'sender_profile_uuid',
            'sender_profile_uuid: no sender profile of yours has this UUID.',
          );
        }
        const existing = await trx
          .selectFrom('linkedin_browsers')
          .select('id')
          .where('team_id', '=', actor.teamId)
          .where('sender_profile_uuid', '=', sender.uuid)
          .executeTakeFirst();
        if (existing)
          throw conflict(`This sender profile already has seat ${existing.id}; delete it first.`, {
            id: existing.id,
          });
        const now = clock.now();
        const seat = await trx
          .insertInto('linkedin_browsers')
          .values({
            team_id: actor.teamId,
            sender_profile_uuid: sender.uuid,
            driver,
            name: input.name ?? null,
            external_id: newId(),
            // The sandbox network needs no login: its seats run at once.
            status: driver === 'sandbox' ? 'running' : startProblem ? 'start_issue' : 'stopped',
            error_reason: startProblem ?? null,
            last_start_at: driver === 'sandbox' ? now : null,
            user_id: actor.userId,
            proxy_country_code: proxy.proxy_country_code ?? null,
            custom_proxy_config: proxy.custom_proxy_config ?? '[]',
            proxy_password_sealed: proxy.proxy_password_sealed ?? null,
          })
          .returning(['id', 'status'])
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('sender_profiles')
          .set({ linkedin_browser_id: seat.id, updated_at: now })
          .where('team_id', '=', actor.teamId)
          .where('uuid', '=', sender.uuid)
          .execute();
        if (seat.status === 'running') {
          await resumeSenderActions(
            trx,
            actor.teamId,
            sender.uuid,
            ['no_linkedin_seat', 'seat_login_issue'],
            now,
          );
        }
        return seat.id;
      });
      return presentSeat(await requireSeat(actor.teamId, id), clock.now());
    },

    /** The hosted service sorts this list ascending by default. */
    async listSeats(teamId: number, params: PageParams) {
      const page = resolvePage({ ...params, order_type: params.order_type ?? 'asc' }, SEAT_SORT);
      const { rows, total } = await repo.selectSeats(db, teamId, page);
      return envelope(
        rows.map((row) => presentSeat(row, clock.now())),
        total,
        page,
      );
    },

    async getSeat(teamId: number, id: number) {
      return presentSeat(await requireSeat(teamId, id), clock.now());
    },

    async updateSeat(teamId: number, id: number, input: Static<typeof UpdateSeatBody>) {
      const proxy = await proxyChange(input);
      return updateColumns(teamId, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...proxy,
        ...invitationColumns(input.invitations),
        restart: 'custom_proxy_config' in proxy,
      });
    },

    async setProxy(teamId: number, id: number, input: Static<typeof SetProxyBody>) {
      if (input.proxy_country_code === undefined && input.custom_proxy_config === undefined) {
        throw invalidField('custom_proxy_config', 'Send proxy_country_code and/or custom_proxy_config.');
      }
      const proxy = await proxyChange(input);
      return updateColumns(teamId, id, { ...proxy, restart: 'custom_proxy_config' in proxy });
    },

    /** Adds team members (by e-mail) to the seat's shared_emails; a non-member is a 422 naming it. */
    async shareSeat(teamId: number, id: number, input: Static<typeof ShareSeatBody>) {
      const seat = await requireSeat(teamId, id);
      const members = await repo.selectMemberEmails(db, teamId, input.recipients);
      const known = new Set(members.map((email) => email.toLowerCase()));
      const missing = input.recipients.findIndex((email) => !known.has(email.toLowerCase()));
      if (missing >= 0) {
        throw invalidField(
          `recipients[${missing}]`,
          `recipients[${missing}]: ${input.recipients[missing]} is not a member of this team.`,
        );
      }
      const shared = [...new Set([...seat.shared_emails, ...members])];
      return updateColumns(teamId, id, { shared_emails: shared });
    },

    /** A new public login link; the previous one stops working at once. Sandbox seats have no login. */
    /** Asks for a selector health check of a chromium seat; the health round runs it. */
    async requestHealthCheck(teamId: number, id: number) {
      const seat = await requireSeat(teamId, id);
      if (seat.driver === 'sandbox') {
        throw invalidField('id', 'sandbox seats have no LinkedIn pages to check.');
      }
      await db
        .updateTable('linkedin_browsers')
        .set({ health_requested_at: clock.now(), updated_at: clock.now() })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .execute();
      return presentSeat((await requireSeat(teamId, id)) as repo.SeatRecord, clock.now());
    },

    async generateAccessKey(teamId: number, id: number) {
      const seat = await requireSeat(teamId, id);
      if (seat.driver === 'sandbox') {
        throw invalidField(
          'id',
          'sandbox seats need no login: they run against the simulated network at once.',
        );
      }
      const { key, hash } = generateAccessKey();
      const expiresAt = new Date(clock.now().getTime() + ACCESS_KEY_TTL_MS);
      await db
        .updateTable('linkedin_browsers')
        .set({ access_key_hash: hash, access_key_expires_at: expiresAt, updated_at: clock.now() })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .execute();
      return {
        external_access_key: key,
        cloud_browser_url: `${deps.publicUrl.replace(/\/+$/, '')}/cloud-browser/public/${key}`,
        expires_at: expiresAt,
      };
    },

    async deleteSeat(teamId: number, id: number) {
      await requireSeat(teamId, id);
      await db.transaction().execute(async (trx) => {
        const seat = await trx
          .deleteFrom('linkedin_browsers')
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .returning('sender_profile_uuid')
          .executeTakeFirst();
        if (seat) {
          await trx
            .updateTable('sender_profiles')
            .set({ linkedin_browser_id: null, updated_at: clock.now() })
            .where('team_id', '=', teamId)
            .where('uuid', '=', seat.sender_profile_uuid)
            .where('linkedin_browser_id', '=', id)
            .execute();
        }
      });
      // The sealed session went with the row; the browser and its local profile go now.
      await deps.runtime?.release(teamId, id);
    },

    /** Starts the seat. A browser seat that never logged in cannot start: it shows login_issue. */
    async runSeat(teamId: number, id: number) {
      const seat = await requireSeat(teamId, id);
      const startProblem = seat.driver === 'chromium' ? await deps.runtime?.startProblem?.() : undefined;
      const running = !startProblem && (seat.driver === 'sandbox' || seat.session_sealed !== null);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('linkedin_browsers')
          .set({
            status: running ? 'running' : startProblem ? 'start_issue' : 'login_issue',
            error_reason: running
              ? null
              : (startProblem ??
                'The seat has never been logged in; send its login link (generate-external-access-key) to the account owner.'),
            last_start_at: running ? now : seat.last_start_at,
            updated_at: now,
          })
          .where('team_id', '=', teamId)
          .where('id', '=', id)
          .execute();
        if (running)
          await resumeSenderActions(
            trx,
            teamId,
            seat.sender_profile_uuid,
            ['no_linkedin_seat', 'seat_login_issue'],
            now,
          );
      });
    },

    async stopSeat(teamId: number, id: number) {
      await requireSeat(teamId, id);
      await db
        .updateTable('linkedin_browsers')
        .set({ status: 'stopped', error_reason: null, updated_at: clock.now() })
        .where('team_id', '=', teamId)
        .where('id', '=', id)
        .execute();
      await deps.runtime?.release(teamId, id);
    },
  };
}

export type BrowsersService = ReturnType<typeof createBrowsersService>;
