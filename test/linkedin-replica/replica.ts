// A local replica of the LinkedIn pages the Chromium driver uses, served on 127.0.0.1 by tests: login
// with a 2FA step (sets `li_at`), feed, profiles with the connect dialog (note, note quota), messaging
// and InMail composers, recent activity with like and comment, skills with endorse, the sent
// invitations manager (withdraw), the connections list (with the date each was made), people and company search, company about pages, the authwall, a
// checkpoint and the weekly invitation limit notice. Paths and hooks follow linkedin-pages.ts (which
// follows what open-source tools saw on linkedin.com). Everything "LinkedIn" receives is recorded in
// `state.actions`, so tests assert what went out, and how many times.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SeatSession } from '../../src/modules/browsers/seat-session.js';
import { FREE_NOTE_MAX, inviteDialog, PREMIUM_NOTE_MAX } from './replica-invite.js';
import {
  CONVERSATIONS_PATH,
  conversationsJson,
  legacyList,
  messagingPage,
  slugOfConversation,
} from './replica-messaging.js';
import { connectionCards, SENT_CONFIRM, sentCards } from './replica-network.js';
import { sduiProfile } from './replica-sdui.js';
import { type ReplicaMode, shape } from './replica-shell.js';

export type { ReplicaMode } from './replica-shell.js';

export type ReplicaPerson = {
  slug: string;
  memberId: number;
  urnId: string;
  firstName: string;
  lastName: string;
  headline: string;
  position: string;
  company: { name: string; slug: string; id: number };
  location: string;
  about: string;
  skills: string[];
  posts: Array<{ id: string; text: string; date: string }>;
  openProfile?: boolean;
  /** Connect sits behind the "More" menu (as on many profiles). */
  connectInMenu?: boolean;
  /** No connect action at all (follow-only profiles). */
  followOnly?: boolean;
  /** The invitation needs a note (no "Send without a note"; Send disabled until one is typed). */
  noteRequired?: boolean;
};

export type ReplicaCompany = {
  id: number;
  slug: string;
  name: string;
  tagline: string;
  about: string;
  website: string;
  industry: string;
  size: string;
  headquarters: string;
  founded: number;
  specialties: string[];
  followers: number;
  employeesOnLinkedIn: number;
};

export type ReplicaAccount = {
  email: string;
  password: string;
  /** The 2FA code asked after the password. */
  pin: string;
  slug: string;
  memberId: number;
  inmailCredits: number;
  /** Invitations with a note the account may send per 30 days (a free account: about 5). */
  noteQuota: number;
  /** Premium: notes up to 300 characters (free: 200). */
  premium?: boolean;
};

export type ReplicaAction =
  | { type: 'invite'; account: string; to: string; note: string | null; at: string }
  | { type: 'message'; account: string; to: string; text: string; attachments?: string[]; at: string }
  | {
      type: 'inmail';
      account: string;
      to: string;
      subject: string;
      text: string;
      attachments?: string[];
      at: string;
    }
  | { type: 'like'; account: string; post: string; at: string }
  | { type: 'comment'; account: string; post: string; text: string; at: string }
  | { type: 'endorse'; account: string; to: string; skill: string; at: string }
  | { type: 'withdraw'; account: string; to: string; at: string }
  | { type: 'visit'; account: string; to: string; at: string };

export type ReplicaState = {
  accounts: ReplicaAccount[];
  people: ReplicaPerson[];
  companies: ReplicaCompany[];
  /** account slug -> person slug -> relation. */
  relations: Record<string, Record<string, 'connected' | 'pending'>>;
  /** account slug -> person slug -> when they connected (the connections page's date; `accept` sets it). */
  connectedAt?: Record<string, Record<string, string>>;
  /** account slug -> person slug -> when the account opened the conversation (the overlay marks it read). */
  markedRead?: Record<string, Record<string, string>>;
  /** account slug -> person slug -> when the person last read the conversation (its "seen" receipt). */
  seen?: Record<string, Record<string, string>>;
  /** Invitations accepted per account in a rolling week before LinkedIn shows its limit notice. */
  weeklyInviteLimit: number;
  /** Sessions (li_at value -> account slug). Cleared to log everyone out. */
  sessions: Record<string, string>;
  /** Accounts whose next page is a security checkpoint. */
  checkpointed: string[];
  actions: ReplicaAction[];
  /** Conversations: account slug -> person slug -> messages. */
  threads: Record<
    string,
    Record<
      string,
      Array<{ from: 'me' | 'them'; text: string; subject?: string; attachments?: string[]; at: string }>
    >
  >;
  likes: Record<string, string[]>;
  endorsed: Record<string, string[]>;
};

/**
 * Faults injected after an action was received and recorded: `hang` never answers; `error` answers an
 * error page with an error toast (the action went through all the same).
 */
export type ReplicaFaults = { afterAction: 'hang' | 'error' | null };

export type Replica = {
  url: string;
  state: ReplicaState;
  faults: ReplicaFaults;
  /** How pages behave (replica-shell.ts); a test may change it between steps. */
  mode: ReplicaMode;
  /** Recorded actions of one type. */
  actions<T extends ReplicaAction['type']>(type: T): Array<Extract<ReplicaAction, { type: T }>>;
  /** The person accepts the account's invitation (or connects) at `at` (default now). */
  accept(accountSlug: string, personSlug: string, at?: string): void;
  /** The person reads the conversation with the account at `at` (default now): a "seen" receipt. */
  read(accountSlug: string, personSlug: string, at?: string): void;
  /** Signs an account in directly (what the login page ends with): the `li_at` value. */
  signIn(accountSlug: string): string;
  /** A seat session holding that `li_at` for the replica's host, as the login live view stores it. */
  sessionOf(token: string): SeatSession;
  close(): Promise<void>;
};

const esc = (value: unknown) =>
  String(value ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function page(title: string, body: string, signedIn: string | null, after = '') {
  const nav = signedIn
    ? `<nav><a href="/feed/">Home</a> <a href="/mynetwork/">My Network</a> <a href="/messaging/">Messaging</a> <a href="/in/${esc(signedIn)}/">Me</a></nav><aside><a href="/premium/products/?upsellOrderOrigin=premium_sidebar">Try Premium for free</a></aside>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} | LinkedIn</title></head><body>${nav}<main>${body}</main>${after}</body></html>`;
}

/** A small seeded world: two accounts, ten people, three companies. */
export function seedState(overrides: Partial<ReplicaState> = {}): ReplicaState {
  const companies: ReplicaCompany[] = [
    { slug: 'acme', name: 'Acme Robotics', id: 1001 },
    { slug: 'globex', name: 'Globex', id: 1002 },
    { slug: 'initech', name: 'Initech', id: 1003 },
  ].map((c, i) => ({
    ...c,
    tagline: `${c.name} builds things`,
    about: `${c.name} is a fictional company of the replica.`,
    website: `https://${c.slug}.example.test`,
    industry: ['Robotics', 'Logistics', 'Software'][i]!,
    size: ['51-200 employees', '1,001-5,000 employees', '11-50 employees'][i]!,
    headquarters: ['Berlin, Germany', 'Austin, Texas', 'Lyon, France'][i]!,
    founded: 2001 + i,
    specialties: ['automation', 'sensors'].slice(0, i + 1),
    followers: 1200 * (i + 1),
    employeesOnLinkedIn: 80 * (i + 1),
  }));
  const people: ReplicaPerson[] = Array.from({ length: 10 }, (_, i) => {
    const company = companies[i % 3]!;
    return {
      slug: `person-${i}`,
      memberId: 5000 + i,
      urnId: `ACoAAP${String(i).padStart(4, '0')}`,
      firstName: `First${i}`,
      lastName: `Last${i}`,
      headline: `Engineer ${i} at ${company.name}`,
      position: `Engineer ${i}`,
      company: { name: company.name, slug: company.slug, id: company.id },
      location: 'Berlin, Germany',
      about: `About person ${i}.`,
      skills: ['TypeScript', 'PostgreSQL', 'Sales', 'Hiring'],
      posts:
        i === 9
          ? []
          : [
              { id: `70000${i}2`, text: `Latest post of ${i}`, date: '2026-05-20T10:00:00Z' },
              { id: `70000${i}1`, text: `Older post of ${i}`, date: '2026-05-01T10:00:00Z' },
            ],
      ...(i === 7 ? { connectInMenu: true } : {}),
      ...(i === 8 ? { followOnly: true, openProfile: true } : {}),
    };
  });
  return {
    accounts: [
      {
        email: 'owner@replica.test',
        password: 'correct horse',
        pin: '123456',
        slug: 'sam-sender',
        memberId: 4000,
        inmailCredits: 5,
        noteQuota: 100,
      },
      {
        email: 'free@replica.test',
        password: 'battery staple',
        pin: '654321',
        slug: 'frida-free',
        memberId: 4001,
        inmailCredits: 0,
        noteQuota: 0,
      },
    ],
    people,
    companies,
    relations: {},
    weeklyInviteLimit: 100,
    sessions: {},
    checkpointed: [],
    actions: [],
    threads: {},
    likes: {},
    endorsed: {},
    ...overrides,
  };
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function cookieOf(req: http.IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}

/** The empty state of a list (LinkedIn: "No messages yet", "No results found"). */
const EMPTY = '<div data-field="empty-state" class="artdeco-empty-state">Nothing here yet</div>';

export async function startReplica(
  initial: ReplicaState = seedState(),
  mode: ReplicaMode = {},
): Promise<Replica> {
  const state = initial;
  const faults: ReplicaFaults = { afterAction: null };
  let tokens = 0;
  /** Accounts between password and 2FA: pending token -> account slug. */
  const pendingLogins = new Map<string, string>();
  const now = () => new Date().toISOString();
  const record = (action: ReplicaAction) => state.actions.push(action);
  /** Files uploaded from a composer: id -> what LinkedIn received. */
  const uploads = new Map<string, { name: string; type: string; size: number }>();
  const person = (handle: string) =>
    state.people.find(
      (p) => p.slug === handle.toLowerCase() || p.urnId.toLowerCase() === handle.toLowerCase(),
    );
  const relation = (account: string, slug: string) => state.relations[account]?.[slug];
  const setRelation = (account: string, slug: string, value: 'connected' | 'pending' | null) => {
    const mine = state.relations[account] ?? {};
    state.relations[account] = mine;
    if (value) mine[slug] = value;
    else delete mine[slug];
  };
  const account = (slug: string) => state.accounts.find((a) => a.slug === slug)!;
  const weekInvites = (slug: string) =>
    state.actions.filter(
      (a) => a.type === 'invite' && a.account === slug && Date.parse(a.at) > Date.now() - 7 * 86_400_000,
    ).length;
  /** Notes the account sent in the last 30 days (LinkedIn's "per month" quota of free accounts). */
  const notesUsed = (slug: string) =>
    state.actions.filter(
      (a) =>
        a.type === 'invite' &&
        a.account === slug &&
        a.note &&
        Date.parse(a.at) > Date.now() - 30 * 86_400_000,
    ).length;
  const noteRules = (me: string, p: ReplicaPerson) => ({
    noteAllowed: notesUsed(me) < account(me).noteQuota,
    noteMax: account(me).premium ? PREMIUM_NOTE_MAX : FREE_NOTE_MAX,
    noteRequired: Boolean(p.noteRequired),
  });
  const fullName = (p: ReplicaPerson) => `${p.firstName} ${p.lastName}`;
  function issueSession(slug: string) {
    tokens += 1;
    const token = `AQED${tokens}${Math.random().toString(36).slice(2)}`;
    state.sessions[token] = slug;
    return token;
  }

  function profilePage(me: string, p: ReplicaPerson, notice = '') {
    const rel = relation(me, p.slug);
    const inviteLabel = `Invite ${esc(fullName(p))} to connect`;
    let actions = '';
    if (rel === 'connected') {
      actions += `<a href="/messaging/compose/?recipient=${esc(p.slug)}">Message</a>`;
    } else if (rel === 'pending') {
      actions += `<button aria-label="Pending, click to withdraw invitation sent to ${esc(fullName(p))}">Pending</button>`;
      actions += `<a href="/messaging/compose/?recipient=${esc(p.slug)}&amp;inmail=true">Message</a>`;
    } else {
      if (!p.followOnly && !p.connectInMenu) {
        actions += `<button aria-label="${inviteLabel}" onclick="document.getElementById('invite').hidden=false">Connect</button>`;
      }
      actions += `<a href="/messaging/compose/?recipient=${esc(p.slug)}&amp;inmail=true">Message</a>`;
      if (p.connectInMenu) {
        actions += `<button aria-label="More actions" onclick="document.getElementById('menu').hidden=false">More</button>`;
      }
    }
    const menu = p.connectInMenu
      ? `<div id="menu" role="menu" hidden><div role="menuitem" aria-label="${inviteLabel}" onclick="document.getElementById('invite').hidden=false;document.getElementById('menu').hidden=true">Connect</div></div>`
      : '';
    const dialog = inviteDialog({ layout: 'legacy', to: p.slug, ...noteRules(me, p) });
    const experience = `<section id="experience"><ul><li><span data-field="title">${esc(p.position)}</span> <a data-field="company" href="/company/${esc(p.company.slug)}/" data-company-id="${p.company.id}">${esc(p.company.name)}</a> <span data-field="dates">2020 - Present</span></li></ul></section>`;
    const skills = `<section id="skills"><ul>${p.skills.map((s) => `<li><span data-field="skill-name">${esc(s)}</span></li>`).join('')}</ul></section>`;
    return page(
      fullName(p),
      `${notice}<section data-member-id="${p.memberId}" data-member-urn="urn:li:fsd_profile:${esc(p.urnId)}" data-open-profile="${p.openProfile ? 'true' : 'false'}">
        <img data-field="avatar" src="/media/${esc(p.slug)}.png" alt="">
        <h1>${esc(fullName(p))}</h1>
        <div data-field="headline">${esc(p.headline)}</div>
        <span data-field="location">${esc(p.location)}</span>
        <span data-field="connections">500+ connections</span>
        <span data-field="followers">${p.memberId - 4000} followers</span>
        <div data-field="actions">${actions}</div>${menu}
      </section>${dialog}
      <section id="about"><div data-field="about">${esc(p.about)}</div></section>${experience}${skills}`,
      me,
    );
  }

  function composerPage(me: string, p: ReplicaPerson, inmail: boolean) {
    const thread = state.threads[me]?.[p.slug] ?? [];
    const events = thread
      .map(
        (m) =>
          `<li data-field="message" data-from="${m.from}"><time datetime="${m.at}">${m.at}</time>${m.subject ? `<h4>${esc(m.subject)}</h4>` : ''}<p data-field="message-body">${esc(m.text)}</p>${(m.attachments ?? []).map((name) => `<a data-field="message-attachment" href="#">${esc(name)}</a>`).join('')}</li>`,
      )
      .join('');
    const connected = relation(me, p.slug) === 'connected';
    const canInmail = account(me).inmailCredits > 0 || p.openProfile;
    let composer: string;
    if (!inmail && !connected) {
      composer = `<div role="dialog" aria-modal="true">Send ${esc(p.firstName)} an InMail with Premium <a href="/premium/products/">Try Premium</a></div>`;
    } else if (inmail && !connected && !canInmail) {
      composer = `<div role="dialog" aria-modal="true">You have no InMail credits left. <a href="/premium/products/">Get more</a></div>`;
    } else {
      composer = `<form data-field="composer" method="post" action="/replica/message" onsubmit="this.text.value=this.querySelector('[role=textbox]').innerText">
        <input type="hidden" name="to" value="${esc(p.slug)}"><input type="hidden" name="inmail" value="${inmail && !connected ? '1' : ''}"><input type="hidden" name="text">
        ${inmail && !connected ? '<input name="subject" placeholder="Subject">' : ''}
        <div role="textbox" contenteditable="true" aria-label="Write a message…"></div>
        <input type="file" multiple aria-label="Attach a file" data-field="attachment-input" onchange="replicaUpload(this)">
        <ul data-field="attachments"></ul>
        <button type="submit">Send</button></form>`;
    }
    return page('Messaging', `<h2>${esc(fullName(p))}</h2><ul>${events}</ul>${composer}`, me);
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://replica');
    const path = url.pathname;
    const send = (status: number, html: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(shape(html, mode));
    };
    const redirect = (to: string, headers: Record<string, string | string[]> = {}) => {
      res.writeHead(303, { location: to, ...headers });
      res.end();
    };
    try {
      // Public pages.
      if (path === '/login' && req.method === 'GET') {
        return send(
          200,
          page(
            'Sign in',
            `<form method="post" action="/uas/login-submit"><input id="username" name="session_key" type="email" autocomplete="username"><input id="password" name="session_password" type="password"><button type="submit" data-litms-control-urn="login-submit">Sign in</button>${url.searchParams.get('error') ? '<div role="alert" id="error-for-password">Wrong email or password.</div>' : ''}</form>`,
            null,
          ),
        );
      }
      if (path === '/uas/login-submit' && req.method === 'POST') {
        const form = await readForm(req);
        const acct = state.accounts.find(
          (a) => a.email === form.get('session_key') && a.password === form.get('session_password'),
        );
        if (!acct) return redirect('/login?error=1');
        const pending = `p${Math.random().toString(36).slice(2)}`;
        pendingLogins.set(pending, acct.slug);
        return redirect(`/checkpoint/challenge/verify?challengeId=${pending}`);
      }
      if (path === '/checkpoint/challenge/verify') {
        const challenge = url.searchParams.get('challengeId') ?? '';
        if (req.method === 'POST') {
          const form = await readForm(req);
          const slug = pendingLogins.get(form.get('challengeId') ?? '');
          if (!slug || form.get('pin') !== account(slug).pin) {
            return redirect(
              `/checkpoint/challenge/verify?challengeId=${esc(form.get('challengeId'))}&error=1`,
            );
          }
          pendingLogins.delete(form.get('challengeId') ?? '');
          const token = issueSession(slug);
          // LinkedIn sends SameSite=None; Secure - over the replica's plain http Chromium would drop that.
          return redirect('/feed/', {
            'set-cookie': [`li_at=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=31536000`],
          });
        }
        return send(
          200,
          page(
            'Security verification',
            `<form method="post" action="/checkpoint/challenge/verify"><input type="hidden" name="challengeId" value="${esc(challenge)}"><label>Enter the code we sent <input name="pin" id="input__email_verification_pin" inputmode="numeric"></label><button type="submit" id="email-pin-submit-button">Submit</button>${url.searchParams.get('error') ? '<div role="alert">That code is wrong.</div>' : ''}</form>`,
            null,
          ),
        );
      }
      if (path === '/authwall') {
        return send(
          200,
          page('Sign up', '<h1>Join LinkedIn to see this profile</h1><a href="/login">Sign in</a>', null),
        );
      }
      if (path.startsWith('/checkpoint/challenge/')) {
        return send(
          200,
          page(
            'Security check',
            '<h1>Let’s do a quick security check</h1><iframe title="captcha" src="about:blank"></iframe>',
            null,
          ),
        );
      }
      if (path.startsWith('/media/')) {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        return res.end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
      }

      // Signed-in pages.
      const token = cookieOf(req, 'li_at');
      const me = token ? state.sessions[token] : undefined;
      if (!me) {
        if (path.startsWith('/in/') || path.startsWith('/company/')) {
          return redirect(`/authwall?trk=replica&sessionRedirect=${encodeURIComponent(url.toString())}`);
        }
        return redirect(`/login?session_redirect=${encodeURIComponent(path)}`);
      }
      if (state.checkpointed.includes(me)) return redirect('/checkpoint/challenge/AgHrZ3Rlc3Q/');

      if (path === '/feed/' || path === '/feed') {
        return send(200, page('Feed', '<h1>Your feed</h1>', me));
      }
      if (path === '/premium/products/') return send(200, page('Premium', '<h1>Premium</h1>', me));

      // The member's own profile: /in/me/ leads to it (as on linkedin.com), without actions on it.
      if (path === '/in/me/' || path === '/in/me') return redirect(`/in/${me}/`);
      if (path === `/in/${me}/`) {
        const acct = account(me);
        const card =
          mode.layout === 'sdui'
            ? `<section id="com.linkedin.sdui.profile.card.refme${acct.memberId}Topcard"><h2 class="_n4m">${esc(me)}</h2></section>`
            : `<section data-member-id="${acct.memberId}"><h1>${esc(me)}</h1></section>`;
        return send(200, page(me, card, me));
      }
      let match = /^\/in\/([^/]+)\/?$/.exec(path);
      if (match) {
        const p = person(decodeURIComponent(match[1]!));
        if (!p) return redirect('/404/');
        if (p.slug !== decodeURIComponent(match[1]!).toLowerCase()) return redirect(`/in/${p.slug}/`);
        record({ type: 'visit', account: me, to: p.slug, at: now() });
        const notice = url.searchParams.get('limit')
          ? '<div class="ip-fuse-limit-alert__warning">You’ve reached the weekly invitation limit</div>'
          : url.searchParams.get('upsell')
            ? // LinkedIn swaps the invitation dialog for a Premium upsell at Send (the note is refused).
              '<div role="dialog" aria-modal="true"><p>Personalise more invitations with Premium.</p><a href="/premium/products/?upsellOrderOrigin=custom_invite">Try Premium</a></div>'
            : '';
        if (mode.layout === 'sdui') {
          const others = state.people.filter((o) => o.slug !== p.slug && !relation(me, o.slug)).slice(0, 3);
          const who = (o: ReplicaPerson) => ({
            slug: o.slug,
            name: fullName(o),
            headline: o.headline,
            location: o.location,
            company: o.company,
          });
          const body = sduiProfile({
            person: who(p),
            relation: relation(me, p.slug),
            connectInMenu: Boolean(p.connectInMenu),
            followOnly: Boolean(p.followOnly),
            dialog: inviteDialog({ layout: 'sdui', to: '', ...noteRules(me, p) }),
            rail: others.map(who),
            notice,
          });
          return send(200, page(fullName(p), body, me));
        }
        return send(200, profilePage(me, p, notice));
      }
      match = /^\/in\/([^/]+)\/recent-activity\/all\/?$/.exec(path);
      if (match) {
        const p = person(decodeURIComponent(match[1]!));
        if (!p) return redirect('/404/');
        const liked = state.likes[me] ?? [];
        const posts = p.posts
          .map(
            (
              post,
            ) => `<div data-urn="urn:li:activity:${esc(post.id)}"><time datetime="${esc(post.date)}">${esc(post.date)}</time><p>${esc(post.text)}</p>
            <form method="post" action="/replica/like"><input type="hidden" name="post" value="${esc(post.id)}"><button type="submit" data-action="react-like" aria-pressed="${liked.includes(post.id)}">Like</button></form>
            <button data-action="comment" onclick="this.nextElementSibling.hidden=false">Comment</button>
            <form data-field="comment-box" method="post" action="/replica/comment" hidden onsubmit="this.text.value=this.querySelector('[role=textbox]').innerText"><input type="hidden" name="post" value="${esc(post.id)}"><input type="hidden" name="text"><div role="textbox" contenteditable="true"></div><button type="submit">Post</button></form>
            <ul data-field="comments">${state.actions
              .filter((a) => a.type === 'comment' && a.account === me && a.post === post.id)
              .map((a) => `<li data-field="comment">${esc((a as { text: string }).text)}</li>`)
              .join('')}</ul></div>`,
          )
          .join('');
        return send(200, page('Activity', `<h1>${esc(fullName(p))}’s activity</h1>${posts || EMPTY}`, me));
      }
      match = /^\/in\/([^/]+)\/details\/skills\/?$/.exec(path);
      if (match) {
        const p = person(decodeURIComponent(match[1]!));
        if (!p) return redirect('/404/');
        const connected = relation(me, p.slug) === 'connected';
        const done = state.endorsed[`${me}:${p.slug}`] ?? [];
        const items = p.skills
          .map(
            (skill) =>
              `<li data-field="skill" data-skill="${esc(skill)}"><span>${esc(skill)}</span>${
                connected
                  ? `<form method="post" action="/replica/endorse"><input type="hidden" name="to" value="${esc(p.slug)}"><input type="hidden" name="skill" value="${esc(skill)}"><button type="submit" data-action="endorse" aria-pressed="${done.includes(skill)}">${done.includes(skill) ? 'Endorsed' : 'Endorse'}</button></form>`
                  : ''
              }</li>`,
          )
          .join('');
        return send(200, page('Skills', `<ul>${items}</ul>`, me));
      }
      if (path === '/messaging/') {
        // The inbox (replica-messaging.ts; a test adds the contacts' replies to state.threads, from "them").
        const list = legacyList(state.threads[me] ?? {}, state.seen?.[me] ?? {});
        const shown = messagingPage(mode.messaging ?? 'legacy', list, EMPTY);
        return send(200, page('Messaging', shown.main, me, shown.after));
      }
      if (
        path === CONVERSATIONS_PATH &&
        url.searchParams.get('queryId')?.startsWith('messengerConversations')
      ) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify(
            conversationsJson(account(me), state.threads[me] ?? {}, person, state.markedRead?.[me] ?? {}),
          ),
        );
      }
      if (req.method === 'POST' && path === '/replica/messaging/read') {
        // Opening a conversation marks it read for the account.
        const slug = slugOfConversation(url.searchParams.get('conversation') ?? '');
        if (slug) {
          state.markedRead ??= {};
          state.markedRead[me] = { ...state.markedRead[me], [slug]: now() };
        }
        res.writeHead(204);
        return res.end();
      }
      if (path === '/messaging/compose/') {
        const p = person(url.searchParams.get('recipient') ?? '');
        if (!p) return redirect('/404/');
        return send(200, composerPage(me, p, url.searchParams.get('inmail') === 'true'));
      }
      if (path === '/mynetwork/invite-connect/connections/') {
        // Connections, most recently added first, each with the date it was made.
        const dates = state.connectedAt?.[me] ?? {};
        const listed = Object.entries(state.relations[me] ?? {})
          .filter(([, r]) => r === 'connected')
          .map(([slug]) => ({ slug, at: dates[slug] ?? null }))
          .sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''))
          .map(({ slug, at }) => {
            const p = person(slug)!;
            return { slug, at, name: fullName(p), headline: p.headline };
          });
        const cards = connectionCards(listed, mode.layout ?? 'legacy');
        return send(
          200,
          page('Connections', `<h1>Connections</h1>${cards ? `<ul>${cards}</ul>` : EMPTY}`, me),
        );
      }
      if (path === '/mynetwork/invitation-manager/sent/') {
        const pending = Object.entries(state.relations[me] ?? {})
          .filter(([, r]) => r === 'pending')
          .map(([slug]) => ({ slug, name: fullName(person(slug)!) }));
        const layout = mode.layout ?? 'legacy';
        const cards = sentCards(pending, layout, Number(url.searchParams.get('start') ?? 0));
        if (url.searchParams.get('fragment')) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(cards);
        }
        const after = layout === 'sdui' ? SENT_CONFIRM : '';
        return send(200, page('Sent invitations', cards ? `<ul>${cards}</ul>` : EMPTY, me, after));
      }
      match = /^\/search\/results\/(people|companies)\/?$/.exec(path);
      if (match) {
        const keywords = (url.searchParams.get('keywords') ?? '').toLowerCase();
        const pageNo = Math.max(1, Number(url.searchParams.get('page') ?? '1') || 1);
        const size = 3;
        const rows =
          match[1] === 'people'
            ? state.people
                .filter((p) => `${fullName(p)} ${p.headline}`.toLowerCase().includes(keywords))
                .map(
                  (p) =>
                    `<li data-field="search-result" data-member-id="${p.memberId}" data-member-urn="urn:li:fsd_profile:${esc(p.urnId)}"><img data-field="result-image" src="/media/${esc(p.slug)}.png" alt=""><a data-field="result-link" href="/in/${esc(p.slug)}/?miniProfileUrn=x"><span data-field="result-title">${esc(fullName(p))}</span></a><div data-field="result-subtitle">${esc(p.headline)}</div><div data-field="result-location">${esc(p.location)}</div></li>`,
                )
            : state.companies
                .filter((c) => c.name.toLowerCase().includes(keywords))
                .map(
                  (c) =>
                    `<li data-field="search-result" data-company-id="${c.id}"><img data-field="result-image" src="/media/${esc(c.slug)}.png" alt=""><a data-field="result-link" href="/company/${esc(c.slug)}/"><span data-field="result-title">${esc(c.name)}</span></a><div data-field="result-subtitle">${esc(c.industry)} • ${esc(c.size)}</div><div data-field="result-location">${esc(c.headquarters)}</div></li>`,
                );
        const slice = rows.slice((pageNo - 1) * size, pageNo * size);
        const hasMore = pageNo * size < rows.length;
        return send(
          200,
          page(
            'Search',
            `<h2 data-field="results-count">About ${rows.length} results</h2>${slice.length ? `<ul>${slice.join('')}</ul>` : EMPTY}<button aria-label="Next" ${hasMore ? '' : 'disabled'}>Next</button>`,
            me,
          ),
        );
      }
      match = /^\/company\/([^/]+)(\/about)?\/?$/.exec(path);
      if (match) {
        const handle = decodeURIComponent(match[1]!).toLowerCase();
        const c = state.companies.find((x) => x.slug === handle || String(x.id) === handle);
        if (!c) return redirect('/404/');
        const facts: Array<[string, string]> = [
          ['website', `<a href="${esc(c.website)}">${esc(c.website)}</a>`],
          ['industry', esc(c.industry)],
          ['size', esc(c.size)],
          ['headquarters', esc(c.headquarters)],
          ['founded', String(c.founded)],
          ['specialties', esc(c.specialties.join(', '))],
        ];
        return send(
          200,
          page(
            c.name,
            `<section data-company-id="${c.id}" data-company-slug="${esc(c.slug)}"><img data-field="logo" src="/media/${esc(c.slug)}.png" alt=""><h1>${esc(c.name)}</h1><p data-field="tagline">${esc(c.tagline)}</p><span data-field="followers">${c.followers} followers</span><a data-field="employees-on-linkedin" href="/search/results/people/?currentCompany=${c.id}">${c.employeesOnLinkedIn} employees</a></section>
            <section id="about"><p data-field="about">${esc(c.about)}</p><dl data-field="facts">${facts.map(([k, v]) => `<div><dt data-key="${k}">${k}</dt><dd>${v}</dd></div>`).join('')}</dl></section>`,
            me,
          ),
        );
      }
      if (path === '/404/') return send(404, page('Page not found', '<h1>This page doesn’t exist</h1>', me));

      // What "LinkedIn" receives.
      if (req.method === 'POST' && path === '/replica/upload') {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const id = `upload-${uploads.size + 1}`;
        uploads.set(id, {
          name: url.searchParams.get('name') ?? 'file',
          type: req.headers['content-type'] ?? '',
          size: Buffer.concat(chunks).length,
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ id }));
      }
      if (req.method === 'POST' && path.startsWith('/replica/')) {
        const form = await readForm(req);
        const at = now();
        const to = form.get('to') ?? '';
        const back = req.headers.referer ?? '/feed/';
        const recorded = state.actions.length;
        // After the action was received: answer, or (injected) never answer / cut the connection.
        const redirect = (to: string) => {
          if (state.actions.length > recorded && faults.afterAction === 'error') {
            return send(
              500,
              page(
                'Error',
                '<div data-test-artdeco-toast-item-type="error">Something went wrong. Try again.</div>',
                me,
              ),
            );
          }
          if (state.actions.length > recorded && faults.afterAction === 'hang') return;
          res.writeHead(303, { location: to });
          res.end();
        };
        switch (path) {
          case '/replica/invite': {
            const p = person(to);
            if (!p) return redirect('/404/');
            if (relation(me, p.slug)) return redirect(`/in/${p.slug}/`);
            if (weekInvites(me) >= state.weeklyInviteLimit) return redirect(`/in/${p.slug}/?limit=1`);
            const note = form.get('message')?.trim() || null;
            if (note && notesUsed(me) >= account(me).noteQuota) {
              return redirect(
                req.headers['x-replica-spa'] ? `/in/${p.slug}/?upsell=1` : '/premium/products/',
              );
            }
            const max = account(me).premium ? PREMIUM_NOTE_MAX : FREE_NOTE_MAX;
            if (note && note.length > max) return send(400, page('Error', 'Note too long', me));
            if (!note && p.noteRequired) return send(400, page('Error', 'A note is required', me));
            record({ type: 'invite', account: me, to: p.slug, note, at });
            setRelation(me, p.slug, 'pending');
            return redirect(`/in/${p.slug}/`);
          }
          case '/replica/message': {
            const p = person(to);
            if (!p) return redirect('/404/');
            const text = form.get('text')?.trim() ?? '';
            const inmail = form.get('inmail') === '1';
            const subject = form.get('subject') ?? '';
            if (!text) return redirect(back);
            const names = form.getAll('attachment').map((id) => uploads.get(id)?.name ?? id);
            const files = names.length > 0 ? { attachments: names } : {};
            if (inmail) {
              const acct = account(me);
              if (!p.openProfile) acct.inmailCredits -= 1;
              record({ type: 'inmail', account: me, to: p.slug, subject, text, ...files, at });
            } else {
              if (relation(me, p.slug) !== 'connected') return send(403, page('Error', 'Not connected', me));
              record({ type: 'message', account: me, to: p.slug, text, ...files, at });
            }
            const threads = state.threads[me] ?? {};
            state.threads[me] = threads;
            const thread = threads[p.slug] ?? [];
            threads[p.slug] = thread;
            thread.push({ from: 'me', text, at, ...(inmail ? { subject } : {}), ...files });
            return redirect(`/messaging/compose/?recipient=${p.slug}${inmail ? '&inmail=true' : ''}`);
          }
          case '/replica/like': {
            const post = form.get('post') ?? '';
            const liked = state.likes[me] ?? [];
            state.likes[me] = liked;
            if (!liked.includes(post)) {
              liked.push(post);
              record({ type: 'like', account: me, post, at });
            }
            return redirect(back);
          }
          case '/replica/comment': {
            record({
              type: 'comment',
              account: me,
              post: form.get('post') ?? '',
              text: form.get('text') ?? '',
              at,
            });
            return redirect(back);
          }
          case '/replica/endorse': {
            const skill = form.get('skill') ?? '';
            const done = state.endorsed[`${me}:${to}`] ?? [];
            state.endorsed[`${me}:${to}`] = done;
            if (!done.includes(skill)) {
              done.push(skill);
              record({ type: 'endorse', account: me, to, skill, at });
            }
            return redirect(back);
          }
          case '/replica/withdraw': {
            if (relation(me, to) === 'pending') {
              setRelation(me, to, null);
              record({ type: 'withdraw', account: me, to, at });
            }
            return redirect('/mynetwork/invitation-manager/sent/');
          }
        }
      }
      return send(404, page('Not found', 'Not found', me));
    } catch (error) {
      send(500, `<pre>${esc((error as Error).stack)}</pre>`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    faults,
    mode,
    actions: (type) => state.actions.filter((a) => a.type === type) as never,
    read: (accountSlug, personSlug, at) => {
      state.seen ??= {};
      state.seen[accountSlug] = { ...state.seen[accountSlug], [personSlug]: at ?? now() };
    },
    accept: (accountSlug, personSlug, at) => {
      setRelation(accountSlug, personSlug, 'connected');
      state.connectedAt ??= {};
      state.connectedAt[accountSlug] = { ...state.connectedAt[accountSlug], [personSlug]: at ?? now() };
    },
    signIn: issueSession,
    sessionOf: (token) => ({
      cookies: [
        {
          name: 'li_at',
          value: token,
          domain: new URL(url).hostname,
          path: '/',
          expires: -1,
          httpOnly: true,
          secure: false,
          sameSite: 'Lax',
        },
      ],
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
