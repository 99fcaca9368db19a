import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import { hasPrograms } from '../../../../test/system-programs.js';
import type { ActionType, ChannelDriver } from '../../channels/driver.js';
import type { LinkedInReader } from '../../channels/reader.js';
import { createChromiumDriver, createChromiumReader } from './chromium-driver.js';
import {
  openReplicaSeat,
  type ReplicaSeat,
  type RequestFields,
  replicaActionRequest,
} from './replica-seat.test-support.js';
import { guardLoopback } from './test-guard.js';

const CHROMIUM = hasPrograms('the Chromium driver tests', ['chromium']);

describe('the Chromium driver against the LinkedIn replica', { skip: !CHROMIUM, timeout: 120_000 }, () => {
  let ctx: TestContext;
  let replica: Replica;
  let seat: ReplicaSeat;
  let driver: ChannelDriver;
  let reader: LinkedInReader;
  let teamId: number;
  let senderUuid: string;
  let token: string;
  const guard = guardLoopback();
  const me = 'sam-sender';

  beforeAll(async () => {
    ctx = await createTestContext();
    replica = await startReplica();
    seat = await openReplicaSeat(ctx, replica, guard, { account: me });
    ({ teamId, senderUuid, token } = seat);
    const options = { browsers: seat.browsers, baseUrl: replica.url, timeoutMs: 20_000 };
    driver = createChromiumDriver({ teamId, seatId: seat.seatId }, options);
    reader = createChromiumReader(
      { teamId, seatId: seat.seatId },
      {
        ...options,
        pace: { profileIntervalMs: 0, searchPageIntervalMs: 0, profilesPerDay: 0, searchPagesPerDay: 0 },
      },
    );
  });
  afterAll(async () => {
    await seat?.close();
    await replica?.close();
    await ctx?.close();
    guard.assertNothingLeft();
  });

  const request = (type: ActionType, slug: string, fields?: RequestFields) =>
    replicaActionRequest({ teamId, senderUuid }, type, slug, fields);
  const connect = (slug: string) => {
    replica.state.relations[me] = { ...replica.state.relations[me], [slug]: 'connected' };
  };

  it('sends a connection request with a note once, then knows it is pending; the outcome check sees it', async () => {
    const invite = request('linkedin_send_connection_request', 'person-0', {
      text: 'Hello First0, let us talk.',
    });
    expect(await driver.perform(invite)).toMatchObject({ ok: true });
    expect(replica.actions('invite')).toEqual([
      expect.objectContaining({ account: me, to: 'person-0', note: 'Hello First0, let us talk.' }),
    ]);
    expect(await driver.perform(invite)).toMatchObject({ ok: false, reason: 'pending' });
    expect(replica.actions('invite')).toHaveLength(1);
    expect(await driver.checkOutcome(invite)).toBe('done');
    expect(await driver.checkOutcome(request('linkedin_send_connection_request', 'person-5'))).toBe(
      'not_done',
    );
  });

  it('connects without a note through the More menu, refuses follow-only profiles and unknown people', async () => {
    expect(await driver.perform(request('linkedin_send_connection_request', 'person-7'))).toMatchObject({
      ok: true,
    });
    expect(replica.actions('invite').at(-1)).toMatchObject({ to: 'person-7', note: null });
    expect(await driver.perform(request('linkedin_send_connection_request', 'person-8'))).toMatchObject({
      ok: false,
      reason: 'not_connectable',
    });
    expect(await driver.perform(request('linkedin_visit_profile', 'nobody-here'))).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
    connect('person-6');
    expect(await driver.perform(request('linkedin_send_connection_request', 'person-6'))).toMatchObject({
      ok: false,
      reason: 'already_connected',
    });
    expect(
      await driver.perform(
        request('linkedin_send_connection_request', 'person-1', { text: 'x'.repeat(301) }),
      ),
    ).toMatchObject({ ok: false, reason: 'restricted' });
    expect(replica.actions('invite')).toHaveLength(2);
  });

  it('answers note_quota when the account has no personalised invitations left, and weekly_limit at the limit', async () => {
    const account = replica.state.accounts.find((a) => a.slug === me)!;
    account.noteQuota = 1;
    expect(
      await driver.perform(request('linkedin_send_connection_request', 'person-1', { text: 'Hi!' })),
    ).toMatchObject({ ok: false, reason: 'note_quota' });
    account.noteQuota = 100;
    replica.state.weeklyInviteLimit = replica.actions('invite').length;
    expect(await driver.perform(request('linkedin_send_connection_request', 'person-1'))).toMatchObject({
      ok: false,
      reason: 'weekly_limit',
    });
    replica.state.weeklyInviteLimit = 100;
    expect(replica.actions('invite')).toHaveLength(2);
  });

  it('messages a connection once (checked in the conversation), refuses a stranger', async () => {
    expect(await driver.perform(request('linkedin_send_message', 'person-1', { text: 'Hi' }))).toMatchObject({
      ok: false,
      reason: 'not_connected',
    });
    connect('person-2');
    const message = request('linkedin_send_message', 'person-2', { text: 'Thanks for connecting, First2!' });
    expect(await driver.checkOutcome(message)).toBe('not_done');
    expect(await driver.perform(message)).toMatchObject({ ok: true });
    expect(replica.actions('message')).toEqual([
      expect.objectContaining({ to: 'person-2', text: 'Thanks for connecting, First2!' }),
    ]);
    expect(await driver.checkOutcome(message)).toBe('done');
    expect(await driver.checkOutcome({ ...message, text: 'Another text' })).toBe('not_done');
  });

  it('sends an InMail with its subject; without credits it is inmail_unavailable', async () => {
    const inmail = request('linkedin_send_inmail', 'person-3', {
      subject: 'A question',
      text: 'Open to a chat?',
    });
    expect(await driver.perform(inmail)).toMatchObject({ ok: true });
    expect(replica.actions('inmail')).toEqual([
      expect.objectContaining({ to: 'person-3', subject: 'A question', text: 'Open to a chat?' }),
    ]);
    expect(await driver.checkOutcome(inmail)).toBe('done');
    replica.state.accounts.find((a) => a.slug === me)!.inmailCredits = 0;
    expect(
      await driver.perform(request('linkedin_send_inmail', 'person-4', { subject: 'S', text: 'T' })),
    ).toMatchObject({ ok: false, reason: 'inmail_unavailable' });
  });

  it('likes and comments the latest post, endorses skills of a connection, visits a profile', async () => {
    expect(await driver.perform(request('linkedin_like_latest_post', 'person-0'))).toMatchObject({
      ok: true,
      remoteRef: 'urn:li:activity:7000002',
    });
    expect(await driver.perform(request('linkedin_like_latest_post', 'person-0'))).toMatchObject({
      ok: false,
      reason: 'nothing_to_do',
    });
    expect(replica.actions('like')).toEqual([expect.objectContaining({ post: '7000002' })]);
    expect(await driver.checkOutcome(request('linkedin_like_latest_post', 'person-0'))).toBe('done');
    expect(await driver.perform(request('linkedin_like_latest_post', 'person-9'))).toMatchObject({
      ok: false,
      reason: 'nothing_to_do',
    });
    expect(
      await driver.perform(request('linkedin_comment_latest_post', 'person-0', { text: 'Great point!' })),
    ).toMatchObject({ ok: true });
    expect(replica.actions('comment')).toEqual([
      expect.objectContaining({ post: '7000002', text: 'Great point!' }),
    ]);

    expect(
      await driver.perform(request('linkedin_endorse_skills', 'person-2', { options: { number: 2 } })),
    ).toMatchObject({ ok: true, detail: { endorsed: ['TypeScript', 'PostgreSQL'] } });
    expect(replica.actions('endorse').map((a) => a.skill)).toEqual(['TypeScript', 'PostgreSQL']);
    expect(
      await driver.perform(request('linkedin_endorse_skills', 'person-5', { options: { number: 2 } })),
    ).toMatchObject({ ok: false, reason: 'not_connected' });

    const visits = replica.actions('visit').length;
    expect(await driver.perform(request('linkedin_visit_profile', 'person-5'))).toMatchObject({ ok: true });
    expect(replica.actions('visit')).toHaveLength(visits + 1);
  });

  it('a form post that never comes back after Send is unconfirmed, never retried; the check finds it done', async () => {
    const impatient = createChromiumDriver(
      { teamId, seatId: seat.seatId },
      { browsers: seat.browsers, baseUrl: replica.url, timeoutMs: 20_000, confirmTimeoutMs: 2_000 },
    );
    const invite = request('linkedin_send_connection_request', 'person-4');
    replica.faults.afterAction = 'hang';
    const outcome = await impatient.perform(invite);
    replica.faults.afterAction = null;
    expect(outcome).toMatchObject({ ok: false, reason: 'unconfirmed' });
    expect(replica.actions('invite').filter((a) => a.to === 'person-4')).toHaveLength(1);
    expect(await driver.checkOutcome(invite)).toBe('done');
    replica.state.relations[me]!['person-4'] = undefined as never;
    delete replica.state.relations[me]!['person-4'];
  });

  it('withdraws a pending invitation from the sent invitations manager, once', async () => {
    const withdraw = request('linkedin_withdraw_connection_request', 'person-0');
    expect(await driver.checkOutcome(withdraw)).toBe('not_done');
    expect(await driver.perform(withdraw)).toMatchObject({ ok: true });
    expect(await driver.perform(withdraw)).toMatchObject({ ok: false, reason: 'nothing_to_do' });
    expect(replica.actions('withdraw')).toEqual([expect.objectContaining({ to: 'person-0' })]);
  });

  it('reads a profile, a company page and search pages', async () => {
    const context = { teamId, senderProfileUuid: senderUuid, at: new Date() };
    const profile = await reader.getProfile(context, { linkedin: 'person-4' });
    expect(profile).toMatchObject({
      ok: true,
      value: {
        ln_member_id: 5004,
        ln_id: 'ACoAAP0004',
        linkedin: 'person-4',
        first_name: 'First4',
        last_name: 'Last4',
        headline: 'Engineer 4 at Globex',
        position: 'Engineer 4',
        company_name: 'Globex',
        company_ln_id: '1002',
        company_linkedin: 'globex',
        raw_address: 'Berlin, Germany',
        skills: ['TypeScript', 'PostgreSQL', 'Sales', 'Hiring'],
      },
    });
    // By profile id alone: LinkedIn redirects to the nickname.
    expect(await reader.getProfile(context, { ln_id: 'ACoAAP0004' })).toMatchObject({
      ok: true,
      value: { linkedin: 'person-4' },
    });
    expect(await reader.getProfile(context, { linkedin: 'nobody-here' })).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
    expect(await reader.getCompany(context, { linkedin: 'acme' })).toMatchObject({
      ok: true,
      value: {
        ln_id: 1001,
        name: 'Acme Robotics',
        domain: 'acme.example.test',
        industry: 'Robotics',
        employees_range: '51-200 employees',
        hq_raw_address: 'Berlin, Germany',
        year_established: 2001,
        followers: 1200,
        employees_on_linkedin: 80,
      },
    });
    const search = {
      type: 'ln_leads_search' as const,
      url: 'https://www.linkedin.com/search/results/people/?keywords=engineer',
    };
    const first = await reader.searchPage(context, search, 1);
    expect(first).toMatchObject({ ok: true, value: { kind: 'people', page: 1, total: 10, hasMore: true } });
    const last = await reader.searchPage(context, search, 4);
    expect(last).toMatchObject({ ok: true, value: { kind: 'people', hasMore: false } });
    if (first.ok && first.value.kind === 'people') {
      expect(first.value.people.map((p) => p.linkedin)).toEqual(['person-0', 'person-1', 'person-2']);
      expect(first.value.people[0]).toMatchObject({
        ln_member_id: 5000,
        ln_id: 'ACoAAP0000',
        name: 'First0 Last0',
      });
    }
    const companies = await reader.searchPage(
      context,
      { type: 'ln_accounts_search', url: 'https://www.linkedin.com/search/results/companies/?keywords=' },
      1,
    );
    expect(companies).toMatchObject({
      ok: true,
      value: {
        kind: 'companies',
        total: 3,
        companies: [
          { ln_id: 1001, linkedin: 'acme', industry: 'Robotics' },
          { ln_id: 1002 },
          { ln_id: 1003 },
        ],
      },
    });
    expect(
      await reader.searchPage(context, { type: 'sn_leads_search', url: 'https://x.test/' }, 1),
    ).toMatchObject({
      ok: false,
      reason: 'invalid_search',
    });
  });

  it('a security checkpoint is `checkpoint`, a lost session `logged_out`, and nothing is sent', async () => {
    const before = replica.state.actions.filter((a) => a.type !== 'visit').length;
    replica.state.checkpointed.push(me);
    expect(await driver.perform(request('linkedin_send_connection_request', 'person-5'))).toMatchObject({
      ok: false,
      reason: 'checkpoint',
    });
    expect(
      await reader.getProfile(
        { teamId, senderProfileUuid: senderUuid, at: new Date() },
        { linkedin: 'person-5' },
      ),
    ).toMatchObject({ ok: false, reason: 'checkpoint' });
    replica.state.checkpointed = [];
    delete replica.state.sessions[token];
    connect('person-5');
    expect(await driver.perform(request('linkedin_send_message', 'person-5', { text: 'Hi' }))).toMatchObject({
      ok: false,
      reason: 'logged_out',
    });
    expect(await driver.perform(request('linkedin_visit_profile', 'person-5'))).toMatchObject({
      ok: false,
      reason: 'logged_out',
    });
    expect(await driver.perform(request('linkedin_withdraw_connection_request', 'person-7'))).toMatchObject({
      ok: false,
      reason: 'logged_out',
    });
    expect(replica.state.actions.filter((a) => a.type !== 'visit')).toHaveLength(before);
  });
});
