// LinkedIn through a seat's real Chromium: the engine's ChannelDriver (every LinkedIn action and the
// outcome check). Each action runs inside the seat's browser (seat-browsers.ts `use`: one at a time per
// seat, session saved afterwards), walks the pages LinkedIn shows a person (chromium-actions.ts) and
// answers ok or a typed failure: the page classifier (linkedin-pages.ts) turns a login, authwall or
// checkpoint page into `logged_out` / `checkpoint` (the engine then parks the sender and marks the seat
// `login_issue`), LinkedIn's weekly invitation notice into `weekly_limit`, an upsell in place of the
// dialog or composer into `note_quota` / `inmail_unavailable` / `not_connected`. Before the irreversible
// click a page that does not answer is `transient`; after it, `unconfirmed` (the engine asks the outcome
// check, never retries). Nothing here throws for an expected outcome. Reads: chromium-reads.ts; the
// inbox: chromium-inbox.ts.
import type { Page } from 'playwright-core';
import type { AttachmentFile } from '../../attachments/attachment-files.js';
import type { ActionOutcome, ActionRequest, ChannelDriver, OutcomeCheck } from '../../channels/driver.js';
import { BREAKER_RECHECK_MS } from '../seat-health.js';
import {
  checkAction,
  commentLatest,
  endorse,
  likeLatest,
  sendMessage,
  withdraw,
} from './chromium-actions.js';
import { connect } from './chromium-connect.js';
import { type ChromiumOptions, type ChromiumSeat, failure, handleOf, pages, stop } from './chromium-pages.js';

export { createChromiumInbox } from './chromium-inbox.js';
export { type ChromiumOptions, type ChromiumSeat, handleOf } from './chromium-pages.js';
export { createChromiumReader } from './chromium-reads.js';

export function createChromiumDriver(seat: ChromiumSeat, options: ChromiumOptions): ChannelDriver {
  const p = pages(options, seat);

  /** The files of a message's attachments, read before the browser is taken. */
  async function filesOf(request: ActionRequest): Promise<AttachmentFile[]> {
    const sendsFiles = request.type === 'linkedin_send_message' || request.type === 'linkedin_send_inmail';
    if (!sendsFiles || request.attachments.length === 0) return [];
    if (!options.attachmentFiles)
      stop('no_channel', 'This seat driver was set up without attachment access.');
    const loaded = await options.attachmentFiles!(request.teamId, request.attachments);
    if (!loaded.ok) stop('not_found', `The attachment ${loaded.missing} no longer exists.`);
    return (loaded as { files: AttachmentFile[] }).files;
  }

  async function act(request: ActionRequest, page: Page, files: AttachmentFile[]): Promise<ActionOutcome> {
    if (request.type === 'email_send_message') stop('no_channel', 'A browser seat does not send e-mail.');
    const handle = handleOf(request.lead);
    if (!handle) stop('invalid_recipient', 'The contact has no LinkedIn profile (nickname or profile id).');
    const h = handle!;
    const text = request.text?.trim() || null;
    switch (request.type) {
      case 'linkedin_send_connection_request':
        return connect(p, page, h, text, options.notes);
      case 'linkedin_send_message':
        if (!text) stop('invalid_recipient', 'The message is empty.');
        return sendMessage(p, page, h, text!, null, files, request.lead.ln_id);
      case 'linkedin_send_inmail':
        if (!text) stop('invalid_recipient', 'The InMail is empty.');
        return sendMessage(p, page, h, text!, { subject: request.subject }, files, request.lead.ln_id);
      case 'linkedin_visit_profile': {
        // Opening the profile is the visit (LinkedIn records it on load); no card needs to be read.
        const kind = await p.go(page, p.urls.profile(h));
        if (kind === 'not_found') stop('not_found', `LinkedIn has no profile ${h}.`);
        if (kind !== 'profile') stop('transient', `Expected a profile page, got ${page.url()}.`);
        return { ok: true, remoteRef: `profile:${h}` };
      }
      case 'linkedin_like_latest_post':
        return likeLatest(p, page, h);
      case 'linkedin_comment_latest_post':
        if (!text) stop('invalid_recipient', 'The comment is empty.');
        return commentLatest(p, page, h, text!);
      case 'linkedin_endorse_skills': {
        const wanted = Number(request.options.number ?? 1);
        return endorse(p, page, h, Number.isInteger(wanted) && wanted > 0 ? wanted : 1);
      }
      case 'linkedin_withdraw_connection_request':
        return withdraw(p, page, h);
      default:
        return stop('no_channel', `The browser driver does not do ${request.type}.`);
    }
  }

  async function check(request: ActionRequest, page: Page): Promise<OutcomeCheck> {
    const handle = handleOf(request.lead);
    if (!handle) return 'not_done';
    return checkAction(p, request, page, handle);
  }

  return {
    name: 'chromium',
    async perform(request) {
      const breakers = options.breakers;
      // The seat's health check or repeated misses paused this type: no browser is opened for it.
      const paused = await breakers?.paused(request.type);
      if (paused) {
        return {
          ok: false,
          reason: 'selector_health',
          message: `Paused on this seat until a health check passes: ${paused}`,
          retryAfterMs: BREAKER_RECHECK_MS,
        };
      }
      try {
        const files = await filesOf(request);
        const outcome = await options.browsers.use(seat.teamId, seat.seatId, ({ page }) =>
          act(request, page, files),
        );
        await breakers?.found(request.type);
        return outcome;
      } catch (error) {
        const { reason, message, retryAfterMs } = failure(error, options.logger);
        // A page this driver does not know, before any irreversible step: the action did not happen. It
        // counts toward the type's breaker (retries would meet the same page).
        if (reason === 'selector_miss') {
          await breakers?.missed(request.type, message);
          return { ok: false, reason: 'transient', message: `selector_miss: ${message}` };
        }
        if (reason !== 'transient' && reason !== 'rate_limited') await breakers?.found(request.type);
        return { ok: false, reason, message, ...(retryAfterMs ? { retryAfterMs } : {}) };
      }
    },
    async checkOutcome(request) {
      try {
        return await options.browsers.use(seat.teamId, seat.seatId, ({ page }) => check(request, page));
      } catch (error) {
        options.logger?.warn({ err: error }, 'LinkedIn outcome check failed');
        return 'unknown';
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
