// What the public tracking endpoints do with a sealed token (tracking-links.ts): an open marks the
// e-mail opened and tells the engine (email_opened: trigger_email_opened, contact_opened_email); a
// click likewise (link_clicked: trigger_link_clicked, contact_clicked_email) and answers the link; an
// unsubscribe blacklists the recipient's address, marks the contact unsubscribed and tells the engine
// (email_unsubscribed: the contact's planned e-mail steps are skipped, contact_unsubscribed_email).
// Signals are stored once per key, so a second open of one e-mail, a second click on one link or a
// repeated unsubscribe changes nothing more.
import type { Database } from '../../../db/database.js';
import type { Clock } from '../../../lib/clock.js';
import { newId } from '../../../lib/ids.js';
import type { SecretBox } from '../../../lib/secrets.js';
import { leadBlacklistValues } from '../../blacklists/blacklist-input.js';
import { flagLeadsMatchingEntry } from '../../blacklists/blacklist-match.js';
import { insertLeadEntry, lockTeamBlacklist } from '../../blacklists/blacklists.repository.js';
import { ingestSignalsIn } from '../../engine/index.js';
import { setLeadEmailStatus } from '../../leads/leads.repository.js';
import { emailEventObject } from '../sending/email-object.js';
import { markTracked, outgoingEmail } from './tracking.repository.js';
import { readTrackingToken, type TrackingClaim, type TrackingKind } from './tracking-links.js';

export type TrackingServiceDeps = { db: Database; box: SecretBox; clock: Clock };

export function createTrackingService(deps: TrackingServiceDeps) {
  const { db, box, clock } = deps;

  /** The claim of a token of this kind, or undefined (forged, another kind, another key). */
  function claimOf(token: string, kind: TrackingKind) {
    const claim = readTrackingToken(box, token);
    return claim?.kind === kind ? claim : undefined;
  }

  async function record(claim: TrackingClaim, now: Date) {
    return db.transaction().execute(async (trx) => {
      const email = await markTracked(trx, claim, now);
      if (!email) return false;
      if (email.lead_uuid) {
        await ingestSignalsIn(trx, claim.teamId, now, [
          {
            kind: claim.kind === 'open' ? 'email_opened' : 'link_clicked',
            leadUuid: email.lead_uuid,
            senderProfileUuid: email.sender_profile_uuid,
            occurredAt: now,
            externalKey:
              claim.kind === 'open' ? `open:${email.uuid}` : `click:${email.uuid}:${claim.url ?? ''}`,
            payload: {
              email: await emailEventObject(trx, email),
              ...(claim.url ? { url: claim.url } : {}),
            },
          },
        ]);
      }
      return true;
    });
  }

  return {
    /** An open of the pixel; false when the token is not one of ours. */
    async open(token: string, now = clock.now()) {
      const claim = claimOf(token, 'open');
      return claim ? record(claim, now) : false;
    },

    /** A click: the link to send the browser to, or undefined when the token is not one of ours. */
    async click(token: string, now = clock.now()) {
      const claim = claimOf(token, 'click');
      if (!claim?.url || !/^https?:\/\//i.test(claim.url)) return undefined;
      await record(claim, now);
      return claim.url;
    },

    /** Whether a token is a valid unsubscribe token (the confirmation page asks before acting). */
    async unsubscribeTarget(token: string) {
      const claim = claimOf(token, 'unsubscribe');
      if (!claim) return undefined;
      const email = await outgoingEmail(db, claim);
      return email?.to_email ? { address: email.to_email } : undefined;
    },

    /** The one-click unsubscribe (RFC 8058): false when the token is not one of ours. */
    async unsubscribe(token: string, now = clock.now()) {
      const claim = claimOf(token, 'unsubscribe');
      if (!claim) return false;
      return db.transaction().execute(async (trx) => {
        const email = await outgoingEmail(trx, claim);
        if (!email) return false;
        const teamId = claim.teamId;
        if (email.to_email) {
          const values = leadBlacklistValues({ email: email.to_email });
          await lockTeamBlacklist(trx, 'leads_blacklist', teamId);
          const entry = await insertLeadEntry(trx, {
            team_id: teamId,
            uuid: newId(),
            user_id: null,
            ...values,
          });
          if (entry) await flagLeadsMatchingEntry(trx, teamId, values);
        }
        if (email.lead_uuid) {
          await setLeadEmailStatus(trx, teamId, email.lead_uuid, 'unsubscribed', now);
          await ingestSignalsIn(trx, teamId, now, [
            {
              kind: 'email_unsubscribed',
              leadUuid: email.lead_uuid,
              senderProfileUuid: email.sender_profile_uuid,
              occurredAt: now,
              externalKey: `unsubscribe:${email.uuid}`,
              payload: { email: await emailEventObject(trx, email) },
            },
          ]);
        }
        return true;
      });
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
