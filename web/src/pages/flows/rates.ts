// Rates of a flow from its conversion counts (POST /flows/api/flows/metrics `conversions`).
type Conversions = Record<string, Record<string, number>>;

export type Rate = { rate: number | null; of: number };

const ratio = (part: number, of: number): Rate => ({ rate: of > 0 ? part / of : null, of });

/** Accepted invitations per invitation sent. */
export function acceptanceRate(conversions: Conversions): Rate {
  const c = conversions.linkedin_connection_request ?? {};
  return ratio(c.accepted ?? 0, c.sent ?? 0);
}

/** Replies per message sent, over LinkedIn messages, InMails and e-mails. */
export function replyRate(conversions: Conversions): Rate {
  let sent = 0;
  let replied = 0;
  for (const channel of ['linkedin_message', 'linkedin_inmail', 'email']) {
    sent += conversions[channel]?.sent ?? 0;
    replied += conversions[channel]?.replied ?? 0;
  }
  return ratio(replied, sent);
}

export function percent(rate: number | null): string {
  return rate === null ? '–' : `${(rate * 100).toFixed(rate < 0.1 ? 1 : 0)} %`;
}
