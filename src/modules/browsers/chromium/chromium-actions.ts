// The LinkedIn actions and their outcome checks, as a person does them in the seat's browser. Each action
// walks up to ONE irreversible click (`commit`: Send, Like, Post, Endorse, Withdraw) and confirms it by a
// state on the page; whatever fails after that click is `unconfirmed` (see chromium-pages.ts). Every write
// is scoped to the target: its top card, its slug in the invite link, its post by URN, its card in the
// sent invitations. An outcome check answers `not_done` only when it saw the place where the action would
// show (the thread, the profile's actions) and the action is not there; otherwise `unknown`.
import type { Page } from 'playwright-core';
import type { AttachmentFile } from '../../attachments/attachment-files.js';
import type { ActionOutcome, ActionRequest, OutcomeCheck } from '../../channels/driver.js';
import { type Pages, present, stop } from './chromium-pages.js';
import { SELECTORS as S } from './linkedin-pages.js';
import { LABELS } from './linkedin-selectors.js';

/** Our messages in the open thread that read exactly `text`. */
const ownMessages = (page: Page, text: string) =>
  page
    .locator(S.messaging.eventFromMe)
    .filter({ has: page.locator(S.messaging.eventBody).getByText(text, { exact: true }) });

export async function sendMessage(
  p: Pages,
  page: Page,
  handle: string,
  text: string,
  inmail: { subject: string | null } | null,
  files: AttachmentFile[] = [],
  profileId: string | null = null,
): Promise<ActionOutcome> {
  const url = inmail ? p.urls.inmail(handle, profileId) : p.urls.compose(handle, profileId);
  const kind = await p.go(page, url);
  if (kind === 'not_found') stop('not_found', `LinkedIn has no profile ${handle}.`);
  // The composer, or an upsell in its place (a Premium link elsewhere on the page means nothing).
  const shown = await p.until(
    page,
    [
      ['composer', () => present(page.locator(S.messaging.body))],
      ['upsell', () => present(page.locator(S.upsell))],
    ],
    p.timeout,
  );
  if (!shown) stop('transient', 'The conversation showed neither a composer nor an upsell.');
  if (shown === 'upsell') {
    if (inmail)
      stop(
        'inmail_unavailable',
        'The account cannot send this person an InMail (no credits, not an open profile).',
      );
    stop('not_connected', 'Messages need a connection; send an InMail instead.');
  }
  if (inmail?.subject && (await p.has(page, S.messaging.subject))) {
    await page.locator(S.messaging.subject).first().fill(inmail.subject, { timeout: p.timeout });
  }
  await page.locator(S.messaging.body).first().fill(text, { timeout: p.timeout });
  if (files.length > 0) {
    if (!(await p.has(page, S.messaging.fileInput))) {
      stop('restricted', 'LinkedIn offers no attachment in this composer.');
    }
    await page
      .locator(S.messaging.fileInput)
      .first()
      .setInputFiles(
        files.map((f) => ({ name: f.name, mimeType: f.mimeType, buffer: f.buffer })),
        { timeout: p.timeout },
      );
    // Each file is uploaded when chosen: send only once every one shows in the composer.
    await page
      .locator(S.messaging.attachmentChip)
      .nth(files.length - 1)
      .waitFor({ timeout: p.timeout })
      .catch(() => stop('transient', 'LinkedIn did not finish uploading the attachments.'));
  }
  const before = await ownMessages(page, text).count();
  return p.commit(page.locator(S.messaging.send).first(), 'Send (message)', async () => {
    await p.confirmed(page, 'The message', [
      ['shown', async () => (await ownMessages(page, text).count()) > before],
    ]);
    return { ok: true, remoteRef: `conversation:${handle}` };
  });
}

/** The latest post of the profile's recent activity (by URN), or null when it shows none. */
async function latestPost(p: Pages, page: Page, handle: string) {
  const kind = await p.go(page, p.urls.recentActivity(handle));
  if (kind === 'not_found') stop('not_found', `LinkedIn has no profile ${handle}.`);
  if ((await p.content(page, S.activity.post, 'recent activity', 'activity.post')) === 'empty') return null;
  const posts = page.locator(S.activity.post);
  const count = await posts.count();
  let best = 0;
  let bestAt = '';
  for (let i = 0; i < count; i++) {
    const at = (await posts.nth(i).locator(S.activity.date).first().getAttribute('datetime')) ?? '';
    if (at > bestAt) {
      bestAt = at;
      best = i;
    }
  }
  const urn = (await posts.nth(best).getAttribute('data-urn')) ?? '';
  // Located by its URN from now on: the same post after any re-render.
  const post = urn ? page.locator(`[data-urn="${urn}"]`).first() : posts.nth(best);
  return { post, urn };
}

export async function likeLatest(p: Pages, page: Page, handle: string): Promise<ActionOutcome> {
  const latest = await latestPost(p, page, handle);
  if (!latest) return stop('nothing_to_do', 'The contact has no recent post.');
  const like = latest.post.locator(S.activity.like).first();
  if ((await like.getAttribute('aria-pressed')) === 'true')
    stop('nothing_to_do', 'The latest post is already liked.');
  return p.commit(like, 'Like', async () => {
    await p.confirmed(page, 'The like', [
      ['pressed', async () => (await like.getAttribute('aria-pressed', { timeout: 1000 })) === 'true'],
    ]);
    return { ok: true, remoteRef: latest.urn };
  });
}

export async function commentLatest(
  p: Pages,
  page: Page,
  handle: string,
  text: string,
): Promise<ActionOutcome> {
  const latest = await latestPost(p, page, handle);
  if (!latest) return stop('nothing_to_do', 'The contact has no recent post.');
  const { post } = latest;
  // Our text shown in the post outside any editor: the comment as LinkedIn lists it.
  const listed = post
    .getByText(text, { exact: true })
    .locator('xpath=self::*[not(ancestor-or-self::*[@contenteditable])]');
  const before = await listed.count();
  await post.locator(S.activity.commentOpen).first().click({ timeout: p.timeout });
  await post.locator(S.activity.commentInput).first().fill(text, { timeout: p.timeout });
  return p.commit(post.locator(S.activity.commentSubmit).first(), 'Post (comment)', async () => {
    await p.confirmed(page, 'The comment', [['listed', async () => (await listed.count()) > before]]);
    return { ok: true, remoteRef: latest.urn };
  });
}

export async function endorse(p: Pages, page: Page, handle: string, wanted: number): Promise<ActionOutcome> {
  const kind = await p.go(page, p.urls.skills(handle));
  if (kind === 'not_found') stop('not_found', `LinkedIn has no profile ${handle}.`);
  await p.content(page, S.skills.item, 'skills page', 'skills.item');
  if ((await page.locator(S.skills.endorse).count()) === 0) {
    stop('not_connected', 'Only first-degree connections can be endorsed.');
  }
  const endorsed: string[] = [];
  while (endorsed.length < wanted) {
    const open = page
      .locator(S.skills.item)
      .filter({ has: page.locator(`${S.skills.endorse}[aria-pressed="false"]`) });
    if ((await open.count()) === 0) break;
    const first = open.first();
    const skill = (await first.getAttribute('data-skill')) ?? (await first.innerText());
    const item = page.locator(S.skills.item).filter({ hasText: skill }).first();
    const button = item.locator(S.skills.endorse).first();
    await p.commit(button, `Endorse (${skill}, after ${endorsed.length} endorsed)`, () =>
      p.confirmed(page, `The endorsement of ${skill}`, [
        ['pressed', async () => (await button.getAttribute('aria-pressed', { timeout: 1000 })) === 'true'],
      ]),
    );
    endorsed.push(skill);
  }
  if (endorsed.length === 0) stop('nothing_to_do', 'Every skill is already endorsed.');
  return { ok: true, detail: { endorsed } };
}

function invitationCard(page: Page, handle: string) {
  return page.locator(S.invitations.card).filter({ has: page.locator(`a[href*="/in/${handle}/"]`) });
}

/** The target's card in the sent invitations (null: the list is shown and they are not in it). */
async function sentCard(p: Pages, page: Page, handle: string) {
  await p.go(page, p.urls.sentInvitations());
  if ((await p.content(page, S.invitations.card, 'sent invitations', 'invitations.card')) === 'empty')
    return null;
  const card = invitationCard(page, handle);
  // The list comes in parts: "Load more" until the card shows or nothing more loads.
  const more = page.getByRole('button', { name: LOAD_MORE }).first();
  for (let i = 0; i < 50 && !(await present(card)); i += 1) {
    if (!(await present(more))) break;
    const cards = await page.locator(S.invitations.card).count();
    await more.click({ timeout: p.timeout });
    await p.until(
      page,
      [['loaded', async () => (await page.locator(S.invitations.card).count()) > cards]],
      p.timeout,
    );
  }
  return (await card.count()) > 0 ? card.first() : null;
}

const LOAD_MORE = new RegExp(`^(${Object.values(LABELS.loadMore).join('|')})$`, 'i');

export async function withdraw(p: Pages, page: Page, handle: string): Promise<ActionOutcome> {
  const card = await sentCard(p, page, handle);
  if (!card) {
    // Not listed (the list pages with "Load more"): the profile says whether anything is pending.
    const top = await p.profile(page, handle);
    if ((await p.relation(page, top, handle)) === 'pending')
      stop('transient', 'The invitation is pending but not in the sent invitations shown.');
    stop('nothing_to_do', 'No pending invitation to withdraw.');
  }
  await card!.locator(S.invitations.withdraw).first().click({ timeout: p.timeout });
  const confirm = page.locator(S.invitations.confirm).filter({ visible: true }).first();
  await confirm.waitFor({ timeout: p.timeout });
  return p.commit(confirm, 'Withdraw', async () => {
    await p.confirmed(page, 'The withdrawal', [
      ['gone', async () => (await invitationCard(page, handle).count()) === 0],
    ]);
    return { ok: true };
  });
}

/** Whether the action of `request` happened, from what the pages show now. */
export async function checkAction(
  p: Pages,
  request: ActionRequest,
  page: Page,
  handle: string,
): Promise<OutcomeCheck> {
  const text = request.text?.trim() || null;
  switch (request.type) {
    case 'linkedin_send_connection_request': {
      if (await sentCard(p, page, handle).catch(() => null)) return 'done';
      const card = await p.profile(page, handle);
      const state = await p.relation(page, card, handle);
      if (state === 'pending' || state === 'connected') return 'done';
      return state === 'connectable' || state === 'menu' ? 'not_done' : 'unknown';
    }
    case 'linkedin_send_message':
    case 'linkedin_send_inmail': {
      const id = request.lead.ln_id;
      const kind = await p.go(
        page,
        request.type === 'linkedin_send_inmail' ? p.urls.inmail(handle, id) : p.urls.compose(handle, id),
      );
      if (kind !== 'messaging' || !text) return 'unknown';
      // Only a thread we can see, with its composer, can say "not sent".
      const open = await p.until(
        page,
        [['composer', () => present(page.locator(S.messaging.body))]],
        p.timeout,
      );
      if (!open) return 'unknown';
      const since = request.at.getTime() - 60_000;
      const mine = ownMessages(page, text);
      for (let i = 0; i < (await mine.count()); i++) {
        const at = Date.parse(
          (await mine
            .nth(i)
            .locator('time[datetime]')
            .first()
            .getAttribute('datetime')
            .catch(() => null)) ?? '',
        );
        if (!Number.isFinite(at) || at >= since) return 'done';
      }
      return 'not_done';
    }
    case 'linkedin_withdraw_connection_request': {
      if (await sentCard(p, page, handle)) return 'not_done';
      const card = await p.profile(page, handle);
      const state = await p.relation(page, card, handle);
      if (state === 'pending' || state === 'connected') return 'not_done';
      // follow_only is also what an unknown layout looks like: no guess.
      return state === 'follow_only' ? 'unknown' : 'done';
    }
    case 'linkedin_like_latest_post': {
      const latest = await latestPost(p, page, handle);
      if (!latest) return 'unknown';
      const pressed = await latest.post.locator(S.activity.like).first().getAttribute('aria-pressed');
      return pressed === 'true' ? 'done' : pressed === 'false' ? 'not_done' : 'unknown';
    }
    case 'linkedin_comment_latest_post': {
      const latest = await latestPost(p, page, handle);
      if (!latest || !text) return 'unknown';
      const listed = latest.post.getByText(text, { exact: true });
      return (await listed.count()) > 0 ? 'done' : 'unknown';
    }
    case 'linkedin_endorse_skills': {
      await p.go(page, p.urls.skills(handle));
      await p.content(page, S.skills.item, 'skills page', 'skills.item');
      return (await page.locator(`${S.skills.endorse}[aria-pressed="true"]`).count()) > 0
        ? 'done'
        : 'not_done';
    }
    case 'linkedin_visit_profile':
      // A visit is harmless to repeat.
      return 'not_done';
    default:
      return 'unknown';
  }
}
