// A connection request, as a person sends one: the target's profile, its own invite control (its slug in
// the link, or Connect inside its top card or More menu - never a rail's), the invitation dialog, the note,
// Send. The seat's note policy (seat-notes.ts) comes first: a note longer than the account takes (200
// characters free, 300 Premium) fails the step - never truncated - and a note the monthly quota would
// refuse is not tried: the step fails with `note_quota` or, when the seat says so, the invitation goes
// without it. LinkedIn's own refusal (a Premium upsell in place of the note field or at Send) is counted
// the same way. Profiles that require a note (Send disabled until one is typed) cannot take a bare one.
import type { Page } from 'playwright-core';
import type { ActionOutcome } from '../../channels/driver.js';
import { FREE_NOTE_MAX_CHARS, type NotePolicy, type SeatNotes } from '../seat-notes.js';
import { inviteLink, type Pages, present, Stop, stop } from './chromium-pages.js';
import { SELECTORS as S } from './linkedin-pages.js';

/** Without the seat's policy (a driver built without a database): a free account, no prediction. */
const UNKNOWN_POLICY: NotePolicy = {
  premium: false,
  onQuota: 'fail',
  maxChars: FREE_NOTE_MAX_CHARS,
  left: null,
};

/** Bookkeeping never fails an action that may have gone out: a lost count only weakens the prediction. */
const quietly = (write: Promise<void> | undefined) => write?.catch(() => undefined);

export async function connect(
  p: Pages,
  page: Page,
  handle: string,
  note: string | null,
  notes?: SeatNotes,
): Promise<ActionOutcome> {
  if (!note) return invite(p, page, handle, null);
  const policy = notes ? await notes.policy() : UNKNOWN_POLICY;
  if (note.length > policy.maxChars) {
    stop(
      'restricted',
      `The note has ${note.length} characters; this seat's LinkedIn account takes at most ${policy.maxChars}` +
        (policy.premium
          ? '.'
          : ' (a free account; set the seat\u2019s invitations.premium if it is Premium).') +
        ' Nothing was sent.',
    );
  }
  const withoutNote = async (why: string) => {
    if (policy.onQuota !== 'send_without_note') stop('note_quota', `${why} Nothing was sent.`);
    const outcome = await invite(p, page, handle, null);
    return outcome.ok ? { ...outcome, detail: { ...outcome.detail, note_dropped: why } } : outcome;
  };
  if (policy.left === 0) {
    return withoutNote(
      'The seat has no personalised invitations left this month (predicted from the notes it sent and ' +
        'LinkedIn\u2019s last refusal; see the seat\u2019s invitations).',
    );
  }
  try {
    const outcome = await invite(p, page, handle, note);
    await quietly(notes?.sent());
    return outcome;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    if (error.reason === 'unconfirmed') await quietly(notes?.sent());
    if (error.reason !== 'note_quota') throw error;
    // LinkedIn refused the note (nothing went out): counted, then the seat's choice.
    await quietly(notes?.refused());
    return withoutNote(error.message);
  }
}

async function invite(p: Pages, page: Page, handle: string, note: string | null): Promise<ActionOutcome> {
  const card = await p.profile(page, handle);
  const state = await p.relation(page, card, handle);
  if (state === 'connected') stop('already_connected', 'Already connected.');
  if (state === 'pending') stop('pending', 'An invitation is already pending.');
  if (state === 'follow_only') stop('not_connectable', 'This profile offers no Connect action.');
  const opener =
    state === 'menu'
      ? page
          .locator(`${S.profile.menuConnect}, [role="menu"] :is(${inviteLink(handle)})`)
          .filter({ visible: true })
          .first()
      : p.connectControl(page, card, handle);
  await opener.click({ timeout: p.timeout });
  const dialog = page.locator(`${S.dialog}:visible`).first();
  await dialog.waitFor({ timeout: p.timeout });
  const upsell = page.locator(`${S.upsell}`).filter({ visible: true });
  const input = page.locator(`${S.profile.noteInput}:visible`).first();
  if (note) {
    // The note field is shown at once (a profile that requires a note) or behind "Add a note".
    if (!(await present(input))) {
      await page.locator(S.profile.addNote).filter({ visible: true }).first().click({ timeout: p.timeout });
    }
    const shown = await p.until(
      page,
      [
        ['upsell', () => present(upsell)],
        ['input', () => present(input)],
      ],
      p.timeout,
    );
    if (shown === 'upsell')
      stop('note_quota', 'The account has no personalised invitations left (LinkedIn asks for Premium).');
    if (!shown) stop('transient', 'The invitation dialog showed no note field.');
    await input.fill(note, { timeout: p.timeout });
    // The field's own limit (maxlength) may be lower than the seat believes: never send a cut note.
    const kept = await input.inputValue({ timeout: p.timeout });
    if (kept !== note) {
      stop(
        'restricted',
        `LinkedIn's note field took ${kept.length} of the note's ${note.length} characters (the account ` +
          'may not be Premium). Nothing was sent.',
      );
    }
  }
  const send = page.locator(S.profile.sendInvite).filter({ visible: true }).first();
  if (!note && (await present(input)) && !(await present(page.locator(S.profile.sendBare)))) {
    stop('not_connectable', 'LinkedIn requires a note to invite this person, and the step has none.');
  }
  return p.commit(send, 'Send (invitation)', async () => {
    const seen = await p.confirmed(page, 'The invitation', [
      ['limit', () => present(page.locator(S.weeklyLimitAlert))],
      ['toast', () => present(page.locator(S.errorToast))],
      // LinkedIn may swap the dialog for a Premium upsell at Send: the note was refused.
      ['upsell', () => present(upsell)],
      ['premium', async () => p.where(page) === 'premium'],
      ['pending', () => present(page.locator(S.profile.topCard).first().locator(S.profile.pending))],
    ]);
    if (seen === 'limit') stop('weekly_limit', 'LinkedIn shows its weekly invitation limit.');
    if (seen === 'upsell' || seen === 'premium')
      stop('note_quota', 'LinkedIn refused the note and asked for Premium.');
    if (seen === 'toast') {
      // replica-only: LinkedIn's toast carries no code (CANT_RESEND_YET is an API error); its text is shown.
      const toast = page.locator(S.errorToast).first();
      const code = await toast.getAttribute('data-error-code').catch(() => null);
      if (code === 'CANT_RESEND_YET')
        stop('cant_resend_yet', 'This person was invited recently; LinkedIn refuses to resend yet.');
      stop('unconfirmed', `LinkedIn showed an error after Send: ${(await toast.innerText()).trim()}`);
    }
    return { ok: true, remoteRef: `invitation:${handle}` };
  });
}
