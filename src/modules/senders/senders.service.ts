import type { Database, Executor } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { assertValidSchedule, defaultSchedule, type Schedule } from '../../lib/schedule.js';
import { resumeSenderActions } from '../enrollments/sender-pauses.js';
import { teamTimeZone } from '../identity/team-timezone.js';
import { dailyTargets, weeklyTargets } from './sender-limits.js';
import * as repo from './senders.repository.js';

type Actor = { teamId: number; userId: number };
type Overrides = Record<string, number | null>;

export type SenderProfileInput = {
  first_name?: string;
  last_name?: string | null;
  label?: string | null;
  avatar_url?: string | null;
  assignee_user_id?: number;
  schedule?: Schedule;
  limits?: Overrides;
  weekly_limits?: Overrides;
  smart_limits_enabled?: boolean;
  action_interval_seconds?: number | null;
  notification_emails?: string | string[] | null;
  status?: 'enabled' | 'disabled';
};

/** The wire object: stored overrides become the limits in force. */
export function presentSenderProfile(row: repo.SenderProfileRow) {
  return {
    uuid: row.uuid,
    team_id: row.team_id,
    first_name: row.first_name,
    last_name: row.last_name,
    label: row.label,
    avatar_url: row.avatar_url,
    assignee_user_id: row.assignee_user_id,
    schedule: row.schedule,
    limits: dailyTargets(row),
    weekly_limits: weeklyTargets(row),
    smart_limits_enabled: row.smart_limits_enabled,
    action_interval_seconds: row.action_interval_seconds,
    status: row.status,
    hold_tasks_till: row.hold_tasks_till,
    linkedin_browser_id: row.linkedin_browser_id,
    mailbox_uuid: row.mailbox_uuid,
    notification_emails: row.notification_emails,
    user_id: row.user_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Stored overrides with `changes` applied: a number sets a key, null removes it (back to the default). */
function mergeOverrides(stored: Record<string, number>, changes: Overrides | undefined) {
  const merged = { ...stored };
  for (const [key, value] of Object.entries(changes ?? {})) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** Addresses as a list or comma-separated text, stored comma-separated; each must be an address. */
function notificationEmails(value: string | string[] | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const list = (Array.isArray(value) ? value : value.split(/[,;]/))
    .map((item) => item.trim())
    .filter(Boolean);
  const bad = list.find((item) => !EMAIL.test(item));
  if (bad !== undefined) {
    throw invalidField('notification_emails', `notification_emails: "${bad}" is not an e-mail address.`);
  }
  return list.length > 0 ? list.join(', ') : null;
}

function trimmed(value: string | null | undefined): string | null {
  const text = value?.trim();
  return text ? text : null;
}

export function createSendersService(deps: { db: Database; clock: Clock }) {
  const { db } = deps;

  async function requireProfile(teamId: number, uuid: string) {
    const row = await repo.selectSenderProfile(db, teamId, uuid);
    if (!row) throw notFound('Sender profile');
    return row;
  }

  async function checkAssignee(trx: Executor, teamId: number, userId: number) {
    if (!(await repo.isTeamMember(trx, teamId, userId))) {
      throw invalidField(
        'assignee_user_id',
        `assignee_user_id ${userId} is not a member of this team; give the id of a team member.`,
      );
    }
  }

  function checkInput(input: SenderProfileInput) {
    if (input.first_name !== undefined && !input.first_name.trim()) {
      throw invalidField('first_name', 'The first_name field is required and cannot be blank.');
    }
    if (input.schedule) assertValidSchedule(input.schedule);
  }

  return {
    async listSenderProfiles(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.senderSort);
      const { rows, total } = await repo.selectSenderProfiles(db, teamId, params.filter, page);
      return envelope(rows.map(presentSenderProfile), total, page);
    },

    async getSenderProfile(teamId: number, uuid: string) {
      return presentSenderProfile(await requireProfile(teamId, uuid));
    },

    async createSenderProfile(actor: Actor, input: SenderProfileInput & { first_name: string }) {
      checkInput(input);
      return db.transaction().execute(async (trx) => {
        const assignee = input.assignee_user_id ?? actor.userId;
        await checkAssignee(trx, actor.teamId, assignee);
        const row = await repo.insertSenderProfile(trx, {
          team_id: actor.teamId,
          uuid: newId(),
          user_id: actor.userId,
          first_name: input.first_name.trim(),
          last_name: trimmed(input.last_name),
          label: trimmed(input.label),
          avatar_url: trimmed(input.avatar_url),
          assignee_user_id: assignee,
          schedule: input.schedule ?? defaultSchedule(await teamTimeZone(trx, actor.teamId)),
          limits: mergeOverrides({}, input.limits),
          weekly_limits: mergeOverrides({}, input.weekly_limits),
          smart_limits_enabled: input.smart_limits_enabled ?? false,
          action_interval_seconds: input.action_interval_seconds ?? null,
          notification_emails: notificationEmails(input.notification_emails),
          status: input.status ?? 'enabled',
        });
        return presentSenderProfile(row);
      });
    },

    async updateSenderProfile(actor: Actor, uuid: string, input: SenderProfileInput) {
      checkInput(input);
      return db.transaction().execute(async (trx) => {
        const current = await repo.lockSenderProfile(trx, actor.teamId, uuid);
        if (!current) throw notFound('Sender profile');
        if (input.assignee_user_id !== undefined)
          await checkAssignee(trx, actor.teamId, input.assignee_user_id);
        const row = await repo.updateSenderProfile(trx, actor.teamId, uuid, {
          first_name: input.first_name?.trim() ?? current.first_name,
          last_name: input.last_name === undefined ? current.last_name : trimmed(input.last_name),
          label: input.label === undefined ? current.label : trimmed(input.label),
          avatar_url: input.avatar_url === undefined ? current.avatar_url : trimmed(input.avatar_url),
          assignee_user_id: input.assignee_user_id ?? current.assignee_user_id,
          schedule: input.schedule ?? current.schedule,
          limits: mergeOverrides(current.limits, input.limits),
          weekly_limits: mergeOverrides(current.weekly_limits, input.weekly_limits),
          smart_limits_enabled: input.smart_limits_enabled ?? current.smart_limits_enabled,
          action_interval_seconds:
            input.action_interval_seconds === undefined
              ? current.action_interval_seconds
              : input.action_interval_seconds,
          notification_emails:
            input.notification_emails === undefined
              ? current.notification_emails
              : notificationEmails(input.notification_emails),
        });
        if (!row) throw notFound('Sender profile');
        return presentSenderProfile(row);
      });
    },

    /** Enabling resumes the enrollments the engine parked while the profile was disabled. */
    async setStatus(teamId: number, uuid: string, status: 'enabled' | 'disabled') {
      return db.transaction().execute(async (trx) => {
        const row = await repo.setSenderProfileStatus(trx, teamId, uuid, status, deps.clock.now());
        if (!row) throw notFound('Sender profile');
        if (status === 'enabled') {
          await resumeSenderActions(trx, teamId, uuid, ['sender_disabled'], deps.clock.now());
        }
        return presentSenderProfile(row);
      });
    },

    /** Deletes the profile; its live enrollments are reassigned or paused (see the repository). */
    async deleteSenderProfile(teamId: number, uuid: string) {
      const result = await db
        .transaction()
        .execute((trx) => repo.deleteSenderProfile(trx, teamId, uuid, deps.clock.now()));
      if (!result.deleted) throw notFound('Sender profile');
      return result;
    },
  };
}

export type SendersService = ReturnType<typeof createSendersService>;
