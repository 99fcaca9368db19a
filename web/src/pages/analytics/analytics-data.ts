// Shapes POST /flows/api/statistics/team into the rows the analytics charts and tables draw: per day,
// per group (sender, flow, contact source), per action type. Pure functions of the answer.
import type { paths } from '@leadflow/sdk';
import { acceptanceRate, replyRate } from '../flows/rates';

export type TeamStatistics =
  paths['/flows/api/statistics/team']['post']['responses']['200']['content']['application/json'];
export type GroupBy = 'sender' | 'flow' | 'contact_source';
type PerDay = Record<string, number[]>;
type Conversions = Record<string, Record<string, number>>;

export const ACTION_LABELS: Record<string, string> = {
  linkedin_send_connection_request: 'Connection requests',
  linkedin_send_message: 'LinkedIn messages',
  linkedin_send_inmail: 'InMails',
  linkedin_visit_profile: 'Profile visits',
  linkedin_like_latest_post: 'Likes and comments',
  linkedin_endorse_skills: 'Endorsements',
  linkedin_withdraw_connection_request: 'Withdrawn requests',
  email_send_message: 'E-mails',
};

const sum = (values: number[] | undefined) => (values ?? []).reduce((a, b) => a + b, 0);

/** Conversion counts of the period (or of day `day` only), summed over groups. */
function totals(groups: TeamStatistics['conversions'], day?: number): Conversions {
  const out: Conversions = {};
  for (const group of groups) {
    for (const [channel, kinds] of Object.entries(group.channels)) {
      out[channel] ??= {};
      for (const [kind, series] of Object.entries(kinds as PerDay)) {
        out[channel][kind] =
          (out[channel][kind] ?? 0) + (day === undefined ? sum(series) : (series[day] ?? 0));
      }
    }
  }
  return out;
}

export type DayRow = {
  date: string;
  linkedin: number;
  email: number;
  actions: number;
  limit: number;
  acceptance: number | null;
  reply: number | null;
  sent: number;
  accepted: number;
  replied: number;
};

/** Per day: actions per channel, actions and the senders' summed daily limit of `type`, rates. */
export function dayRows(stats: TeamStatistics, type: string): DayRow[] {
  return stats.days.map((date, i) => {
    let linkedin = 0;
    let email = 0;
    let actions = 0;
    let limit = 0;
    for (const sender of stats.senders) {
      for (const [action, series] of Object.entries(sender.actions as PerDay)) {
        const n = series[i] ?? 0;
        if (action.startsWith('email')) email += n;
        else linkedin += n;
        if (action === type) actions += n;
      }
      if (sender.status === 'enabled') limit += (sender.daily_limits as PerDay)[type]?.[i] ?? 0;
    }
    const day = totals(stats.conversions, i);
    const accept = acceptanceRate(day);
    const reply = replyRate(day);
    return {
      date,
      linkedin,
      email,
      actions,
      limit,
      acceptance: accept.rate === null ? null : Math.round(accept.rate * 1000) / 10,
      reply: reply.rate === null ? null : Math.round(reply.rate * 1000) / 10,
      sent: accept.of + reply.of,
      accepted: day.linkedin_connection_request?.accepted ?? 0,
      replied: ['linkedin_message', 'linkedin_inmail', 'email'].reduce(
        (n, c) => n + (day[c]?.replied ?? 0),
        0,
      ),
    };
  });
}

export type GroupRow = {
  name: string;
  invitations: number;
  accepted: number;
  acceptance: number | null;
  messages: number;
  replied: number;
  reply: number | null;
};

/** Per group of the answer (sender, flow or contact source): what was sent and what followed. */
export function groupRows(
  stats: TeamStatistics,
  nameOf: (group: TeamStatistics['conversions'][number]) => string,
): GroupRow[] {
  return stats.conversions
    .map((group) => {
      const c = totals([group]);
      const accept = acceptanceRate(c);
      const reply = replyRate(c);
      return {
        name: nameOf(group),
        invitations: accept.of,
        accepted: c.linkedin_connection_request?.accepted ?? 0,
        acceptance: accept.rate === null ? null : Math.round(accept.rate * 1000) / 10,
        messages: reply.of,
        replied: ['linkedin_message', 'linkedin_inmail', 'email'].reduce(
          (n, ch) => n + (c[ch]?.replied ?? 0),
          0,
        ),
        reply: reply.rate === null ? null : Math.round(reply.rate * 1000) / 10,
      };
    })
    .sort(
      (a, b) => b.invitations + b.messages - (a.invitations + a.messages) || a.name.localeCompare(b.name),
    );
}

export type SenderRow = { name: string; status: string; actions: number; limit: number; used: number | null };

/** Per sender: actions of the period against the sum of its daily limits, over every action type. */
export function senderRows(stats: TeamStatistics): SenderRow[] {
  return stats.senders.map((sender) => {
    const actions = Object.values(sender.actions as PerDay).reduce((n, series) => n + sum(series), 0);
    const used = Object.entries(sender.actions as PerDay).map(([type, series]) => {
      const limit = sum((sender.daily_limits as PerDay)[type]);
      return limit > 0 ? sum(series) / limit : 0;
    });
    const limit = Object.keys(sender.actions).reduce(
      (n, type) => n + sum((sender.daily_limits as PerDay)[type]),
      0,
    );
    return {
      name: sender.name,
      status: sender.status,
      actions,
      limit,
      used: used.length > 0 ? Math.round(Math.max(...used) * 1000) / 10 : null,
    };
  });
}

/** The period's totals: actions, and the acceptance and reply rates over all groups. */
export function periodTotals(stats: TeamStatistics) {
  const c = totals(stats.conversions);
  const actions = stats.senders.reduce(
    (n, sender) => n + Object.values(sender.actions as PerDay).reduce((m, series) => m + sum(series), 0),
    0,
  );
  return { actions, acceptance: acceptanceRate(c), reply: replyRate(c) };
}
