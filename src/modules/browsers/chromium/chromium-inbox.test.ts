import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLeads, makeList } from '../../../../test/factories.js';
import { createTestContext, type TestContext } from '../../../../test/harness.js';
import { type Replica, startReplica } from '../../../../test/linkedin-replica/replica.js';
import { hasPrograms } from '../../../../test/system-programs.js';
import { linkedInMessageDeps } from '../../../deps.js';
import { newId } from '../../../lib/ids.js';
import { createInboxRegistry } from '../../channels/registry.js';
import { syncSeat } from '../../linkedin-messages/linkedin-sync.js';
import { createChromiumInbox } from './chromium-driver.js';
import { openReplicaSeat, type ReplicaSeat } from './replica-seat.test-support.js';
import { guardLoopback } from './test-guard.js';

const CHROMIUM = hasPrograms('the Chromium inbox tests', ['chromium']);

describe('the Chromium inbox against the LinkedIn replica', { skip: !CHROMIUM, timeout: 120_000 }, () => {
  let ctx: TestContext;
  let replica: Replica;
  let seat: ReplicaSeat;
  let teamId: number;
  let senderUuid: string;
  let deps: ReturnType<typeof linkedInMessageDeps>;
  const guard = guardLoopback();
  const me = 'sam-sender';

  beforeAll(async () => {
    ctx = await createTestContext();
    replica = await startReplica();
    // Connections listed from before the seat's creation predate it (see the acceptance test).
    seat = await openReplicaSeat(ctx, replica, guard, {
      account: me,
      seatCreatedAt: new Date('2026-11-01T00:00:00.000Z'),
    });
    ({ teamId, senderUuid } = seat);
    const inbox = createChromiumInbox(
      { teamId, seatId: seat.seatId },
      { browsers: seat.browsers, baseUrl: replica.url, timeoutMs: 20_000 },
    );
    deps = {
      ...linkedInMessageDeps({ db: ctx.db, config: ctx.config, clock: { now: () => new Date() } }),
      inboxes: createInboxRegistry(ctx.db, { chromium: () => inbox }),
    };
  });
  afterAll(async () => {
    await seat?.close();
    await replica?.close();
    await ctx?.close();
    guard.assertNothingLeft();
  });

  it('stores the contact’s replies from the messaging page once, and not the seat’s own messages', async () => {
    const person = replica.state.people[0]!.slug;
    const list = await makeList(ctx.db, teamId);
    const [lead] = await makeLeads(ctx.db, teamId, list.uuid, [{ first_name: 'Pat', linkedin: person }]);
    replica.state.threads[me] = {
      [person]: [
        { from: 'me', text: 'Hi there', at: '2026-11-20T10:00:00.000Z' },
        { from: 'them', text: 'Hello, tell me more', at: '2026-11-20T11:00:00.000Z' },
      ],
    };
    const first = await syncSeat(deps, teamId, senderUuid, new Date());
    expect(first).toMatchObject({ stored: 1, replies: 1, error: null });
    const stored = await ctx.db
      .selectFrom('linkedin_messages')
      .selectAll()
      .where('team_id', '=', teamId)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      lead_uuid: lead!.uuid,
      type: 'inbox',
      automation: 'synced',
      text: 'Hello, tell me more',
      message_hash: `chromium:${person}:1`,
    });
    // A second reply arrives; the first is read again (same time as the cursor) but stored once.
    replica.state.threads[me]![person]!.push({
      from: 'them',
      text: 'Are you there?',
      at: '2026-11-20T12:00:00.000Z',
    });
    expect(await syncSeat(deps, teamId, senderUuid, new Date())).toMatchObject({ stored: 1, replies: 1 });
    expect(await syncSeat(deps, teamId, senderUuid, new Date())).toMatchObject({ stored: 0 });
    const signals = await ctx.db
      .selectFrom('lead_signals')
      .select('kind')
      .where('team_id', '=', teamId)
      .execute();
    expect(signals).toEqual([{ kind: 'linkedin_replied' }, { kind: 'linkedin_replied' }]);
  });

  it('reports a contact’s new connection (the connections page) as one accepted invitation', async () => {
    const [accepter, stranger, undated] = replica.state.people.slice(1, 4).map((p) => p.slug) as [
      string,
      string,
      string,
    ];
    const list = await makeList(ctx.db, teamId);
    const [lead] = await makeLeads(ctx.db, teamId, list.uuid, [{ first_name: 'Acc', linkedin: accepter }]);
    await makeLeads(ctx.db, teamId, list.uuid, [{ first_name: 'Und', linkedin: undated }]);
    // A contact who connected before the seat existed did not accept any of its invitations.
    const veteran = replica.state.people[5]!.slug;
    await makeLeads(ctx.db, teamId, list.uuid, [{ first_name: 'Vet', linkedin: veteran }]);
    replica.accept(me, veteran, '2026-10-01T09:00:00.000Z');
    replica.accept(me, accepter, '2026-11-20T13:00:00.000Z');
    // Not a contact: listed, no signal. No date shown: not read.
    replica.accept(me, stranger, '2026-11-20T13:30:00.000Z');
    replica.state.relations[me]![undated] = 'connected';

    expect(await syncSeat(deps, teamId, senderUuid, new Date())).toMatchObject({ error: null, stored: 0 });
    const accepted = () =>
      ctx.db
        .selectFrom('lead_signals')
        .select(['kind', 'lead_uuid'])
        .where('team_id', '=', teamId)
        .where('kind', '=', 'connection_accepted')
        .execute();
    expect(await accepted()).toEqual([{ kind: 'connection_accepted', lead_uuid: lead!.uuid }]);
    // Read again (at the cursor's time) and later: still one acceptance.
    await syncSeat(deps, teamId, senderUuid, new Date());
    expect(await accepted()).toHaveLength(1);
    const events = await ctx.db
      .selectFrom('events')
      .select('name')
      .where('team_id', '=', teamId)
      .where('name', '=', 'contact_accepted_linkedin_connection_request')
      .execute();
    expect(events).toHaveLength(1);
  });

  it('sets read_at on the seat’s sent messages when the conversation shows the contact has seen them', async () => {
    const person = replica.state.people[4]!.slug;
    const list = await makeList(ctx.db, teamId);
    const [lead] = await makeLeads(ctx.db, teamId, list.uuid, [{ first_name: 'Rea', linkedin: person }]);
    const sent = ['2026-11-20T14:00:00.000Z', '2026-11-20T16:00:00.000Z'];
    const uuids = sent.map(() => newId());
    await ctx.db
      .insertInto('linkedin_messages')
      .values(
        sent.map((at, i) => ({
          team_id: teamId,
          uuid: uuids[i]!,
          sender_profile_uuid: senderUuid,
          lead_uuid: lead!.uuid,
          text: `Message ${i}`,
          type: 'outbox' as const,
          automation: 'manual' as const,
          linkedin_type: 'message',
          status: 'done' as const,
          sent_at: new Date(at),
          created_at: new Date(at),
          updated_at: new Date(at),
        })),
      )
      .execute();
    replica.state.threads[me]![person] = sent.map((at, i) => ({
      from: 'me' as const,
      text: `Message ${i}`,
      at,
    }));
    const readAt = async () =>
      (
        await ctx.db
          .selectFrom('linkedin_messages')
          .select(['uuid', 'read_at'])
          .where('uuid', 'in', uuids)
          .execute()
      )
        .sort((a, b) => uuids.indexOf(a.uuid) - uuids.indexOf(b.uuid))
        .map((m) => m.read_at?.toISOString() ?? null);

    // Seen between the two: the first is read, the second not yet.
    replica.read(me, person, '2026-11-20T15:00:00.000Z');
    expect(await syncSeat(deps, teamId, senderUuid, new Date())).toMatchObject({ error: null, read: 1 });
    expect(await readAt()).toEqual(['2026-11-20T15:00:00.000Z', null]);
    // Seen again later: the second gets that time, the first keeps its own.
    replica.read(me, person, '2026-11-20T17:00:00.000Z');
    expect(await syncSeat(deps, teamId, senderUuid, new Date())).toMatchObject({ read: 1 });
    expect(await readAt()).toEqual(['2026-11-20T15:00:00.000Z', '2026-11-20T17:00:00.000Z']);
    expect(await syncSeat(deps, teamId, senderUuid, new Date())).toMatchObject({ read: 0 });
    const listed = await ctx.db
      .selectFrom('linkedin_messages')
      .select('uuid')
      .where('team_id', '=', teamId)
      .where('lead_uuid', '=', lead!.uuid)
      .execute();
    expect(listed).toHaveLength(2);
  });

  it('an inbox that listed conversations and comes back empty twice flags the seat (selector_miss)', async () => {
    const seatRow = () =>
      ctx.db
        .selectFrom('linkedin_browsers')
        .select(['status', 'error_reason'])
        .where('id', '=', seat.seatId)
        .executeTakeFirstOrThrow();
    const threads = replica.state.threads[me];
    // LinkedIn's empty inbox after a full one: once may be true (all archived), twice in a row is flagged.
    replica.state.threads[me] = {};
    expect(await syncSeat(deps, teamId, senderUuid, new Date())).toMatchObject({ error: null });
    expect((await seatRow()).status).toBe('running');
    await syncSeat(deps, teamId, senderUuid, new Date());
    expect(await seatRow()).toMatchObject({
      status: 'running_issue',
      error_reason: expect.stringMatching(/selector_miss/),
    });
    const issues = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('team_id', '=', teamId)
      .where('name', '=', 'sender_profile_issue')
      .execute();
    expect(issues).toHaveLength(1);
    expect(JSON.stringify(issues[0]!.payload)).toContain('selector_miss');
    replica.state.threads[me] = threads ?? {};
  });
});
