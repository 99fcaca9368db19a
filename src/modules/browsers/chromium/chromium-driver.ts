// LinkedIn through a seat's real Chromium: the engine's ChannelDriver (every LinkedIn action and the
// outcome check) and a LinkedInReader (profile, company page, search page). Each action runs inside
// the seat's browser (seat-browsers.ts `use`: one at a time per seat, session saved afterwards), walks
// the pages LinkedIn shows a person, and answers ok or a typed failure: the page classifier
// (linkedin-pages.ts) turns a login, authwall or checkpoint page into `logged_out` / `checkpoint`
// (the engine then parks the sender and marks the seat `login_issue`), LinkedIn's weekly invitation
// notice into `weekly_limit`, a premium upsell into `note_quota` / `inmail_unavailable` /
// `not_connected`. Nothing here throws for an expected outcome; a page that does not answer in time
// is `transient`.
import type { Logger } from 'pino';
import type { Page } from 'playwright-core';
import type { AttachmentFile, AttachmentFiles } from '../../attachments/attachment-files.js';
import type {
  ActionOutcome,
  ActionRequest,
  ChannelDriver,
  FailureReason,
  OutcomeCheck,
} from '../../engine/drivers/driver.js';
import type { InboxItem, InboxPage, LinkedInInbox } from '../../engine/drivers/inbox.js';
import {
  type CompanyRef,
  type LinkedInCompanyPage,
  type LinkedInProfile,
  type LinkedInReader,
  type PersonRef,
  type ReadFailureReason,
  type ReadOutcome,
  type ReadPace,
  SEARCH_TYPES,
  type SearchPage,
} from '../../engine/drivers/reader.js';
import {
  type COMPANY_FACTS,
  classifyUrl,
  firstNumber,
  linkedInUrls,
  type PageKind,
  profileHandle,
  SELECTORS as S,
  sessionProblem,
} from './linkedin-pages.js';
import { type SeatBrowsers, SeatBusyError } from './seat-browsers.js';

/** The most characters LinkedIn takes in an invitation note. */
export const NOTE_MAX_CHARS = 300;

export type ChromiumSeat = { teamId: number; seatId: number };

export type ChromiumOptions = {
  browsers: SeatBrowsers;
  /** https://www.linkedin.com, or the replica in tests. */
  baseUrl: string;
  logger?: Logger;
  /** Longest wait for a page or an element (ms). */
  timeoutMs?: number;
  /** Reads the files of a message's attachments (without it, a message with attachments is refused). */
  attachmentFiles?: AttachmentFiles;
};

/** An expected stop: the action or read ends with this typed reason. */
class Stop extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
  }
}

const stop = (reason: FailureReason, message: string): never => {
  throw new Stop(reason, message);
};

/** The handle of a contact's profile (`/in/<handle>/`): its nickname, else its profile URN id. */
export function handleOf(ref: PersonRef): string | null {
  const nickname = ref.linkedin?.trim();
  if (nickname) return profileHandle(nickname.includes('/in/') ? nickname : `/in/${nickname}/`);
  return ref.ln_id?.trim() || null;
}

function pages(options: ChromiumOptions) {
  const urls = linkedInUrls(options.baseUrl);
  const timeout = options.timeoutMs ?? 15_000;

  /** Where the page is now; a login, authwall or checkpoint page stops everything. */
  function where(page: Page): PageKind {
    const kind = classifyUrl(page.url());
    const problem = sessionProblem(kind);
    if (problem === 'checkpoint')
      stop('checkpoint', 'LinkedIn shows a security checkpoint for this account.');
    if (problem === 'logged_out') stop('logged_out', 'The LinkedIn session of this seat has ended.');
    return kind;
  }

  async function go(page: Page, url: string): Promise<PageKind> {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
    return where(page);
  }

  /** Clicks something that submits a form and waits for the next page. */
  async function submit(page: Page, selector: string): Promise<PageKind> {
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout }),
      page.locator(selector).first().click({ timeout }),
    ]);
    return where(page);
  }

  const has = async (page: Page, selector: string) => (await page.locator(selector).count()) > 0;

  async function profile(page: Page, handle: string): Promise<void> {
    const kind = await go(page, urls.profile(handle));
    if (kind === 'not_found') stop('not_found', `LinkedIn has no profile ${handle}.`);
    if (kind !== 'profile') stop('transient', `Expected a profile page, got ${page.url()}.`);
    await page.locator(S.profile.topCard).waitFor({ timeout });
  }

  type Relation = 'connected' | 'pending' | 'connectable' | 'menu' | 'follow_only';
  async function relation(page: Page): Promise<Relation> {
    if (await has(page, S.profile.pending)) return 'pending';
    if (await has(page, S.profile.message)) return 'connected';
    if (await has(page, S.profile.connect)) return 'connectable';
    if (await has(page, S.profile.more)) {
      await page.locator(S.profile.more).click({ timeout });
      if (await has(page, S.profile.menuConnect)) return 'menu';
    }
    return 'follow_only';
  }

  return { urls, timeout, where, go, submit, has, profile, relation };
}

type Pages = ReturnType<typeof pages>;

async function connect(p: Pages, page: Page, handle: string, note: string | null): Promise<ActionOutcome> {
  if (note && note.length > NOTE_MAX_CHARS) {
    stop('restricted', `The note has ${note.length} characters; LinkedIn takes at most ${NOTE_MAX_CHARS}.`);
  }
  await p.profile(page, handle);
  const state = await p.relation(page);
  if (state === 'connected') stop('already_connected', 'Already connected.');
  if (state === 'pending') stop('pending', 'An invitation is already pending.');
  if (state === 'follow_only') stop('not_connectable', 'This profile offers no Connect action.');
  await page
    .locator(state === 'menu' ? S.profile.menuConnect : S.profile.connect)
    .click({ timeout: p.timeout });
  await page.locator(S.profile.inviteDialog).waitFor({ timeout: p.timeout });
  if (note) {
    await page.locator(S.profile.addNote).click({ timeout: p.timeout });
    const shown = page.locator(`${S.profile.noteInput}, ${S.profile.inviteDialog} ${S.premiumUpsell}`);
    await shown.first().waitFor({ timeout: p.timeout });
    if (await p.has(page, `${S.profile.inviteDialog} ${S.premiumUpsell}`)) {
      stop('note_quota', 'The account has no personalised invitations left (LinkedIn asks for Premium).');
    }
    await page.locator(S.profile.noteInput).fill(note, { timeout: p.timeout });
  }
  const after = await p.submit(page, S.profile.sendInvite);
  if (after === 'premium') stop('note_quota', 'LinkedIn refused the note and asked for Premium.');
  if (await p.has(page, S.weeklyLimitAlert))
    stop('weekly_limit', 'LinkedIn shows its weekly invitation limit.');
  if (await p.has(page, S.errorToast)) {
    const code = await page.locator(S.errorToast).first().getAttribute('data-error-code');
    if (code === 'CANT_RESEND_YET')
      stop('cant_resend_yet', 'This person was invited recently; LinkedIn refuses to resend yet.');
    stop('transient', `LinkedIn showed an error${code ? ` (${code})` : ''}.`);
  }
  if (after !== 'profile' || (await p.relation(page)) !== 'pending') {
    stop('transient', 'LinkedIn did not confirm the invitation.');
  }
  return { ok: true, remoteRef: `invitation:${handle}` };
}

async function sendMessage(
  p: Pages,
  page: Page,
  handle: string,
  text: string,
  inmail: { subject: string | null } | null,
  files: AttachmentFile[] = [],
): Promise<ActionOutcome> {
  const kind = await p.go(page, inmail ? p.urls.inmail(handle) : p.urls.compose(handle));
  if (kind === 'not_found') stop('not_found', `LinkedIn has no profile ${handle}.`);
  await page.locator(`${S.messaging.composer}, ${S.premiumUpsell}`).first().waitFor({ timeout: p.timeout });
  if (!(await p.has(page, S.messaging.composer))) {
    if (inmail)
      stop(
        'inmail_unavailable',
        'The account cannot send this person an InMail (no credits, not an open profile).',
      );
    stop('not_connected', 'Messages need a connection; send an InMail instead.');
  }
  if (inmail?.subject && (await p.has(page, S.messaging.subject))) {
    await page.locator(S.messaging.subject).fill(inmail.subject, { timeout: p.timeout });
  }
  await page.locator(S.messaging.body).fill(text, { timeout: p.timeout });
  if (files.length > 0) {
    if (!(await p.has(page, S.messaging.fileInput))) {
      stop('restricted', 'LinkedIn offers no attachment in this composer.');
    }
    await page.locator(S.messaging.fileInput).setInputFiles(
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
  const before = await page.locator(S.messaging.eventFromMe).count();
  await p.submit(page, S.messaging.send);
  const mine = page.locator(S.messaging.eventFromMe);
  if ((await mine.count()) <= before) stop('transient', 'The message did not appear in the conversation.');
  return { ok: true, remoteRef: `conversation:${handle}` };
}

/** The latest post of the profile's recent activity, or null when it has none. */
async function latestPost(p: Pages, page: Page, handle: string) {
  const kind = await p.go(page, p.urls.recentActivity(handle));
  if (kind === 'not_found') stop('not_found', `LinkedIn has no profile ${handle}.`);
  const posts = page.locator(S.activity.post);
  const count = await posts.count();
  if (count === 0) return null;
  let best = 0;
  let bestAt = '';
  for (let i = 0; i < count; i++) {
    const at = (await posts.nth(i).locator(S.activity.date).first().getAttribute('datetime')) ?? '';
    if (at > bestAt) {
      bestAt = at;
      best = i;
    }
  }
  const post = posts.nth(best);
  return { post, urn: (await post.getAttribute('data-urn')) ?? '' };
}

async function likeLatest(p: Pages, page: Page, handle: string): Promise<ActionOutcome> {
  const latest = await latestPost(p, page, handle);
  if (!latest) stop('nothing_to_do', 'The contact has no recent post.');
  const like = latest!.post.locator(S.activity.like);
  if ((await like.getAttribute('aria-pressed')) === 'true')
    stop('nothing_to_do', 'The latest post is already liked.');
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: p.timeout }),
    like.click({ timeout: p.timeout }),
  ]);
  p.where(page);
  const again = await latestPost(p, page, handle);
  if ((await again?.post.locator(S.activity.like).getAttribute('aria-pressed')) !== 'true') {
    stop('transient', 'LinkedIn did not confirm the like.');
  }
  return { ok: true, remoteRef: latest!.urn };
}

async function commentLatest(p: Pages, page: Page, handle: string, text: string): Promise<ActionOutcome> {
  const latest = await latestPost(p, page, handle);
  if (!latest) stop('nothing_to_do', 'The contact has no recent post.');
  await latest!.post.locator(S.activity.commentOpen).click({ timeout: p.timeout });
  await latest!.post.locator(S.activity.commentInput).fill(text, { timeout: p.timeout });
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: p.timeout }),
    latest!.post.locator(S.activity.commentSubmit).click({ timeout: p.timeout }),
  ]);
  p.where(page);
  return { ok: true, remoteRef: latest!.urn };
}

async function endorse(p: Pages, page: Page, handle: string, wanted: number): Promise<ActionOutcome> {
  const kind = await p.go(page, p.urls.skills(handle));
  if (kind === 'not_found') stop('not_found', `LinkedIn has no profile ${handle}.`);
  if ((await page.locator(S.skills.endorse).count()) === 0) {
    stop('not_connected', 'Only first-degree connections can be endorsed.');
  }
  const endorsed: string[] = [];
  while (endorsed.length < wanted) {
    const open = page.locator(`${S.skills.item}:has(${S.skills.endorse}[aria-pressed="false"])`);
    if ((await open.count()) === 0) break;
    const item = open.first();
    const skill = (await item.getAttribute('data-skill')) ?? (await item.innerText());
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: p.timeout }),
      item.locator(S.skills.endorse).click({ timeout: p.timeout }),
    ]);
    p.where(page);
    endorsed.push(skill);
  }
  if (endorsed.length === 0) stop('nothing_to_do', 'Every skill is already endorsed.');
  return { ok: true, detail: { endorsed } };
}

function invitationCard(page: Page, handle: string) {
  return page.locator(S.invitations.card).filter({ has: page.locator(`a[href*="/in/${handle}/"]`) });
}

async function withdraw(p: Pages, page: Page, handle: string): Promise<ActionOutcome> {
  await p.go(page, p.urls.sentInvitations());
  const card = invitationCard(page, handle);
  if ((await card.count()) === 0) stop('nothing_to_do', 'No pending invitation to withdraw.');
  await card.first().locator(S.invitations.withdraw).click({ timeout: p.timeout });
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'domcontentloaded', timeout: p.timeout }),
    card.first().locator(S.invitations.confirm).click({ timeout: p.timeout }),
  ]);
  p.where(page);
  if ((await invitationCard(page, handle).count()) > 0) stop('transient', 'The invitation is still listed.');
  return { ok: true };
}

function failure(
  error: unknown,
  logger: Logger | undefined,
): { reason: FailureReason; message: string; retryAfterMs?: number } {
  if (error instanceof Stop) return { reason: error.reason, message: error.message };
  if (error instanceof SeatBusyError)
    return { reason: 'rate_limited', message: error.message, retryAfterMs: 60_000 };
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  logger?.warn({ err: error }, 'LinkedIn browser action failed');
  return { reason: 'transient', message: `The browser failed: ${message}` };
}

export function createChromiumDriver(seat: ChromiumSeat, options: ChromiumOptions): ChannelDriver {
  const p = pages(options);

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
        return connect(p, page, h, text);
      case 'linkedin_send_message':
        if (!text) stop('invalid_recipient', 'The message is empty.');
        return sendMessage(p, page, h, text!, null, files);
      case 'linkedin_send_inmail':
        if (!text) stop('invalid_recipient', 'The InMail is empty.');
        return sendMessage(p, page, h, text!, { subject: request.subject }, files);
      case 'linkedin_visit_profile':
        await p.profile(page, h);
        return { ok: true, remoteRef: `profile:${h}` };
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
    const text = request.text?.trim() || null;
    switch (request.type) {
      case 'linkedin_send_connection_request': {
        await p.go(page, p.urls.sentInvitations());
        if ((await invitationCard(page, handle).count()) > 0) return 'done';
        await p.profile(page, handle);
        const state = await p.relation(page);
        if (state === 'pending' || state === 'connected') return 'done';
        return state === 'connectable' || state === 'menu' ? 'not_done' : 'unknown';
      }
      case 'linkedin_send_message':
      case 'linkedin_send_inmail': {
        const kind = await p.go(
          page,
          request.type === 'linkedin_send_inmail' ? p.urls.inmail(handle) : p.urls.compose(handle),
        );
        if (kind !== 'messaging') return 'unknown';
        const since = request.at.getTime() - 60_000;
        const mine = page.locator(S.messaging.eventFromMe);
        for (let i = 0; i < (await mine.count()); i++) {
          const event = mine.nth(i);
          const at = Date.parse((await event.locator('time[datetime]').getAttribute('datetime')) ?? '');
          const body = (await event.locator(S.messaging.eventBody).innerText()).trim();
          if (body === text && (!Number.isFinite(at) || at >= since)) return 'done';
        }
        return 'not_done';
      }
      case 'linkedin_withdraw_connection_request':
        await p.go(page, p.urls.sentInvitations());
        return (await invitationCard(page, handle).count()) > 0 ? 'not_done' : 'done';
      case 'linkedin_like_latest_post': {
        const latest = await latestPost(p, page, handle);
        if (!latest) return 'unknown';
        return (await latest.post.locator(S.activity.like).getAttribute('aria-pressed')) === 'true'
          ? 'done'
          : 'not_done';
      }
      case 'linkedin_endorse_skills': {
        await p.go(page, p.urls.skills(handle));
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

  return {
    name: 'chromium',
    async perform(request) {
      try {
        const files = await filesOf(request);
        return await options.browsers.use(seat.teamId, seat.seatId, ({ page }) => act(request, page, files));
      } catch (error) {
        return { ok: false, ...failure(error, options.logger) };
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
// Reading

const READ_REASONS: Partial<Record<FailureReason, ReadFailureReason>> = {
  not_found: 'not_found',
  logged_out: 'logged_out',
  checkpoint: 'checkpoint',
  restricted: 'restricted',
  rate_limited: 'rate_limited',
  no_channel: 'no_channel',
};

const text = async (page: Page, selector: string): Promise<string | null> => {
  const locator = page.locator(selector).first();
  if ((await locator.count()) === 0) return null;
  const value = (await locator.innerText()).trim();
  return value || null;
};

async function readProfile(p: Pages, page: Page, handle: string): Promise<LinkedInProfile> {
  await p.profile(page, handle);
  const card = page.locator(S.profile.topCard).first();
  const memberId = Number(await card.getAttribute('data-member-id'));
  const urn = (await card.getAttribute('data-member-urn')) ?? '';
  const name = await text(page, S.profile.name);
  const [first, ...rest] = (name ?? '').split(/\s+/);
  const experience = page.locator(S.profile.experience);
  const jobs: LinkedInProfile['experience'] = [];
  let companyId: string | null = null;
  let companySlug: string | null = null;
  for (let i = 0; i < (await experience.count()); i++) {
    const item = experience.nth(i);
    const company = item.locator('[data-field="company"]').first();
    const dates = (
      (await item
        .locator('[data-field="dates"]')
        .first()
        .innerText()
        .catch(() => '')) ?? ''
    ).split(/\s+-\s+/);
    jobs.push({
      title: (await item.locator('[data-field="title"]').first().innerText()).trim(),
      company: (await company.innerText()).trim(),
      start_date: dates[0]?.trim() || null,
      end_date: dates[1] && !/present/i.test(dates[1]) ? dates[1].trim() : null,
    });
    if (i === 0) {
      companyId = await company.getAttribute('data-company-id');
      const href = await company.getAttribute('href');
      companySlug = href ? (/\/company\/([^/]+)/.exec(href)?.[1] ?? null) : null;
    }
  }
  const skills = await page.locator(S.profile.skill).allInnerTexts();
  const location = await text(page, S.profile.location);
  const parts = location?.split(',').map((s) => s.trim()) ?? [];
  const openProfile = await card.getAttribute('data-open-profile');
  return {
    ln_member_id: Number.isFinite(memberId) && memberId > 0 ? memberId : null,
    ln_id: urn.split(':').pop() || null,
    sn_id: null,
    linkedin: profileHandle(page.url()),
    first_name: first || null,
    last_name: rest.join(' ') || null,
    name,
    headline: await text(page, S.profile.headline),
    about: await text(page, S.profile.about),
    position: jobs[0]?.title ?? null,
    company_name: jobs[0]?.company ?? null,
    company_ln_id: companyId,
    company_linkedin: companySlug,
    avatar_url: await page
      .locator(S.profile.avatar)
      .first()
      .evaluate((img) => (img as unknown as { src: string }).src)
      .catch(() => null),
    raw_address: location,
    location: location
      ? [
          {
            address_string: location,
            city: parts[0] ?? null,
            country: parts.length > 1 ? parts[parts.length - 1]! : null,
          },
        ]
      : null,
    connections_number: firstNumber(await text(page, S.profile.connections)),
    followers_number: firstNumber(await text(page, S.profile.followers)),
    primary_language: null,
    supported_languages: null,
    has_open_profile: openProfile === null ? null : openProfile === 'true' ? 1 : 0,
    has_verified_profile: null,
    has_premium: null,
    experience: jobs,
    educations: null,
    skills: skills.map((s) => s.trim()).filter(Boolean),
    posts: null,
  };
}

async function readCompany(p: Pages, page: Page, ref: CompanyRef): Promise<LinkedInCompanyPage> {
  const slug = ref.linkedin?.trim();
  if (!slug && !ref.ln_id) stop('not_found', 'Only a company page slug or id can be read from LinkedIn.');
  const kind = await p.go(page, slug ? p.urls.company(slug) : p.urls.companyById(ref.ln_id!));
  if (kind === 'not_found') stop('not_found', 'LinkedIn has no such company page.');
  const root = page.locator(S.company.root).first();
  await root.waitFor({ timeout: p.timeout });
  const facts: Record<string, string> = {};
  const rows = page.locator(S.company.fact);
  for (let i = 0; i < (await rows.count()); i++) {
    const key = await rows.nth(i).locator('dt').getAttribute('data-key');
    if (key) facts[key] = (await rows.nth(i).locator('dd').innerText()).trim();
  }
  const field = (name: keyof typeof COMPANY_FACTS) => facts[name] || null;
  const website = field('website');
  let domain: string | null = null;
  try {
    domain = website ? new URL(website).hostname.replace(/^www\./, '') : null;
  } catch {}
  return {
    ln_id: Number(await root.getAttribute('data-company-id')) || null,
    linkedin: (await root.getAttribute('data-company-slug')) ?? slug ?? null,
    name: await text(page, S.company.name),
    domain,
    website,
    industry: field('industry'),
    employees_range: field('size'),
    employees_on_linkedin: firstNumber(await text(page, S.company.employeesOnLinkedIn)),
    followers: firstNumber(await text(page, S.company.followers)),
    hq_raw_address: field('headquarters'),
    about: await text(page, S.company.about),
    tagline: await text(page, S.company.tagline),
    year_established: firstNumber(field('founded')),
    specialities:
      field('specialties')
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? null,
    phone: field('phone'),
    logo_url: await page
      .locator(S.company.logo)
      .first()
      .evaluate((img) => (img as unknown as { src: string }).src)
      .catch(() => null),
  };
}

/** The pasted LinkedIn search URL on the configured base (so tests hit the replica). */
function rebase(searchUrl: string, baseUrl: string): string | null {
  try {
    const pasted = new URL(searchUrl);
    return new URL(`${pasted.pathname}${pasted.search}`, baseUrl).toString();
  } catch {
    return null;
  }
}

async function readSearch(p: Pages, page: Page, url: string, kind: 'people' | 'companies', pageNo: number) {
  const at = await p.go(page, p.urls.withPage(url, pageNo));
  if (at !== 'search') stop('not_found', 'The search URL does not lead to LinkedIn search results.');
  const rows = page.locator(S.search.result);
  const count = await rows.count();
  const total = firstNumber(await text(page, S.search.total));
  const hasMore = (await page.locator(S.search.next).count()) > 0;
  const items = [];
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const href = (await row.locator(S.search.resultLink).first().getAttribute('href')) ?? '';
    const title = (await row.locator(S.search.resultTitle).first().innerText()).trim();
    const subtitle =
      (
        await row
          .locator(S.search.resultSubtitle)
          .first()
          .innerText()
          .catch(() => '')
      ).trim() || null;
    const location =
      (
        await row
          .locator(S.search.resultLocation)
          .first()
          .innerText()
          .catch(() => '')
      ).trim() || null;
    const image = await row
      .locator(S.search.resultImage)
      .first()
      .evaluate((img) => (img as unknown as { src: string }).src)
      .catch(() => null);
    items.push({ row, href, title, subtitle, location, image });
  }
  const base = { page: pageNo, total, hasMore };
  if (kind === 'people') {
    const people = [];
    for (const item of items) {
      const memberId = Number(await item.row.getAttribute('data-member-id'));
      const urn = (await item.row.getAttribute('data-member-urn')) ?? '';
      const [first, ...rest] = item.title.split(/\s+/);
      people.push({
        ln_member_id: memberId > 0 ? memberId : null,
        ln_id: urn.split(':').pop() || null,
        sn_id: null,
        linkedin: profileHandle(item.href),
        first_name: first || null,
        last_name: rest.join(' ') || null,
        name: item.title,
        headline: item.subtitle,
        position: null,
        company_name: null,
        company_ln_id: null,
        raw_address: item.location,
        avatar_url: item.image,
      });
    }
    return { ...base, pageSize: Math.max(count, people.length), kind: 'people' as const, people };
  }
  const companies = [];
  for (const item of items) {
    const [industry, size] = (item.subtitle ?? '').split('•').map((s) => s.trim());
    companies.push({
      ln_id: Number(await item.row.getAttribute('data-company-id')) || null,
      linkedin: /\/company\/([^/]+)/.exec(item.href)?.[1] ?? null,
      name: item.title,
      industry: industry || null,
      employees_range: size || null,
      hq_raw_address: item.location,
      logo_url: item.image,
    });
  }
  return { ...base, pageSize: count, kind: 'companies' as const, companies };
}

export function createChromiumReader(
  seat: ChromiumSeat,
  options: ChromiumOptions & { pace: ReadPace },
): LinkedInReader {
  const p = pages(options);
  async function read<T>(work: (page: Page) => Promise<T>): Promise<ReadOutcome<T>> {
    try {
      const value = await options.browsers.use(seat.teamId, seat.seatId, ({ page }) => work(page));
      return { ok: true, value };
    } catch (error) {
      const { reason, message, retryAfterMs } = failure(error, options.logger);
      return {
        ok: false,
        reason: READ_REASONS[reason] ?? 'transient',
        message,
        ...(retryAfterMs ? { retryAfterMs } : {}),
      };
    }
  }
  return {
    name: 'chromium',
    pace: options.pace,
    async getProfile(_context, ref) {
      const handle = handleOf(ref);
      if (!handle)
        return { ok: false, reason: 'not_found', message: 'No LinkedIn nickname or profile id to read.' };
      return read((page) => readProfile(p, page, handle));
    },
    async getCompany(_context, ref) {
      return read((page) => readCompany(p, page, ref));
    },
    async searchPage(_context, search, pageNo): Promise<ReadOutcome<SearchPage>> {
      if (!Number.isInteger(pageNo) || pageNo < 1) {
        return { ok: false, reason: 'invalid_search', message: 'Pages count from 1.' };
      }
      const kind = SEARCH_TYPES[search.type];
      const url = search.url ? rebase(search.url, options.baseUrl) : null;
      const path = url ? new URL(url).pathname : '';
      const expected = kind === 'people' ? '/search/results/people' : '/search/results/companies';
      if (!url || !path.startsWith(expected) || !search.type.startsWith('ln_')) {
        return {
          ok: false,
          reason: 'invalid_search',
          message: `The browser reader runs LinkedIn ${kind} searches (${expected}/?...) only.`,
        };
      }
      return read((page) => readSearch(p, page, url, kind, pageNo)) as Promise<ReadOutcome<SearchPage>>;
    },
  };
}

type InboxRow = {
  person: string;
  from: string;
  index: string;
  at: string;
  subject: string | null;
  text: string;
};

type ConnectionRow = { person: string; name: string; at: string };

// Read receipts: a conversation's "seen" time becomes a `seen` item, so the seat's messages sent by then
// get their read_at (linkedin-ingest.ts markRead).

/**
 * A seat's inbox read in its browser (the sync, src/modules/linkedin-messages/): the messaging page's
 * conversations and the messages the other member wrote, and the connections page's connections (an
 * accepted invitation is a new connection, with its date), from a cursor (the latest time seen, over
 * both; items at that time are read again and stored once by the sync). The seat's own messages are left
 * out: the sends are stored when they are made. A connection the page shows without a date is skipped.
 */
export function createChromiumInbox(seat: ChromiumSeat, options: ChromiumOptions): LinkedInInbox {
  const p = pages(options);
  return {
    name: 'chromium',
    async readSince(_context, cursor, limit): Promise<ReadOutcome<InboxPage>> {
      try {
        const rows = await options.browsers.use(seat.teamId, seat.seatId, async ({ page }) => {
          const kind = await p.go(page, p.urls.inbox());
          if (kind !== 'messaging') stop('transient', `Expected the messaging page, got ${page.url()}.`);
          const messages = await page.locator(S.messaging.conversation).evaluateAll(
            (nodes, sel) =>
              nodes.flatMap((node) => {
                // An index loop: NodeList iteration needs a DOM lib this build does not load.
                const events = node.querySelectorAll(sel.event);
                const found = [];
                for (let i = 0; i < events.length; i += 1) {
                  const m = events.item(i);
                  found.push({
                    person: node.getAttribute('data-person') ?? '',
                    from: m.getAttribute('data-from') ?? '',
                    index: m.getAttribute('data-index') ?? '',
                    at: m.querySelector('time')?.getAttribute('datetime') ?? '',
                    subject: m.querySelector(sel.subject)?.textContent ?? null,
                    text: m.querySelector(sel.body)?.textContent ?? '',
                  });
                }
                return found;
              }),
            { event: S.messaging.event, subject: S.messaging.eventSubject, body: S.messaging.eventBody },
          );
          const receipts = await page.locator(S.messaging.conversation).evaluateAll(
            (nodes, sel) =>
              nodes.map((node) => ({
                person: node.getAttribute('data-person') ?? '',
                at: node.querySelector(sel)?.getAttribute('datetime') ?? '',
              })),
            S.messaging.seenReceipt,
          );
          const connectionsKind = await p.go(page, p.urls.connections());
          if (connectionsKind !== 'connections') {
            stop('transient', `Expected the connections page, got ${page.url()}.`);
          }
          const connections = await page.locator(S.connections.card).evaluateAll(
            (nodes, sel) =>
              nodes.map((node) => ({
                person: node.getAttribute('data-person') ?? '',
                name: node.querySelector(sel.name)?.textContent?.trim() ?? '',
                at: node.querySelector(sel.date)?.getAttribute('datetime') ?? '',
              })),
            { name: S.connections.name, date: S.connections.date },
          );
          return { messages, receipts, connections };
        });
        const since = cursor ? Date.parse(cursor) : Number.NEGATIVE_INFINITY;
        const fromThem = (rows.messages as InboxRow[])
          .filter((r) => r.from !== 'me' && r.person && Date.parse(r.at) >= since)
          .map((r): { at: string; item: InboxItem } => ({
            at: r.at,
            item: {
              kind: 'message',
              id: `chromium:${r.person}:${r.index}`,
              conversationId: r.person,
              direction: 'inbox',
              member: { linkedin: r.person },
              text: r.text,
              subject: r.subject,
              linkedinType: r.subject ? 'InMail' : 'MEMBER_TO_MEMBER',
              sentAt: new Date(r.at),
            },
          }));
        const accepted = (rows.connections as ConnectionRow[])
          .filter((c) => c.person && Number.isFinite(Date.parse(c.at)) && Date.parse(c.at) >= since)
          .map((c): { at: string; item: InboxItem } => ({
            at: c.at,
            item: {
              kind: 'accepted',
              id: `chromium-connection:${c.person}`,
              member: { linkedin: c.person, full_name: c.name || null },
              at: new Date(c.at),
            },
          }));
        const seen = (rows.receipts as Array<{ person: string; at: string }>)
          .filter((r) => r.person && Number.isFinite(Date.parse(r.at)) && Date.parse(r.at) >= since)
          .map((r): { at: string; item: InboxItem } => ({
            at: r.at,
            item: {
              kind: 'seen',
              id: `chromium-seen:${r.person}:${r.at}`,
              conversationId: r.person,
              member: { linkedin: r.person },
              at: new Date(r.at),
            },
          }));
        const all = [...fromThem, ...accepted, ...seen].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
        const fresh = all.slice(0, limit);
        const last = fresh.at(-1);
        return {
          ok: true,
          value: {
            items: fresh.map((f) => f.item),
            cursor: last ? last.at : cursor,
            hasMore: all.length > limit,
          },
        };
      } catch (error) {
        const { reason, message, retryAfterMs } = failure(error, options.logger);
        return {
          ok: false,
          reason: READ_REASONS[reason] ?? 'transient',
          message,
          ...(retryAfterMs ? { retryAfterMs } : {}),
        };
      }
    },
  };
}
