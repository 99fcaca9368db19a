// Syncing a seat's LinkedIn inbox: 1,000 new messages from 1,000 contacts (every one a reply; half of
// the contacts in a running flow that the reply stops) read from the sandbox inbox and stored once,
// with their conversations, signals, stop rule and events - against a baseline measured in the same
// run: one bare INSERT of the same 1,000 message rows. Then the same inbox synced again from the start
// (a lost cursor): nothing new, nothing stored.
import { sql } from 'kysely';
import { linkedInMessageDeps } from '../../src/deps.js';
import { newId } from '../../src/lib/ids.js';
import { addToSandboxInbox, type SandboxInboxRow } from '../../src/modules/browsers/sandbox/sandbox-inbox.js';
import { syncSeat } from '../../src/modules/linkedin-messages/linkedin-sync.js';
import { enroll, makeFlow, makeSandboxSeat, makeSender } from '../../test/automation-factories.js';
import { makeLeads, makeList } from '../../test/factories.js';
import type { BenchRow, Scenario } from '../lib.js';

const MESSAGES = Number(process.env.BENCH_LINKEDIN_SYNC_MESSAGES ?? 1000);

export const linkedinSyncScenario: Scenario = {
  name: 'linkedin-sync',
  description: `sync of a ${MESSAGES}-message LinkedIn inbox (replies of ${MESSAGES} contacts, half of them in a running flow), against a bare INSERT of the same rows`,
  async run(server, log) {
    const deps = await server.newDatabase('linkedinsync');
    const { db } = deps.handle;
    const { team_id: teamId } = await deps.services.identity.createUserWithTeam({
      email: 'linkedin-sync@bench.test',
      teamName: 'linkedin-sync',
    });
    const sender = await makeSender(db, teamId);
    await makeSandboxSeat(db, teamId, sender.uuid);
    const list = await makeList(db, teamId);
    const leads = await makeLeads(
      db,
      teamId,
      list.uuid,
      Array.from({ length: MESSAGES }, (_, i) => ({ first_name: `Lead${i}`, linkedin: `bench-lead-${i}` })),
    );
    const flow = await makeFlow(db, teamId, {
      senders: [sender.uuid],
      nodes: [
        { id: 1, type: 'util_timer', payload: { wait_time: 30 * 86_400 }, next: { 1: 2 } },
        { id: 2, type: 'end' },
      ],
    });
    await enroll(
      db,
      teamId,
      flow,
      leads.filter((_, i) => i % 2 === 0).map((l) => l.uuid),
    );
    await db
      .updateTable('flow_leads')
      .set({
        sender_profile_uuid: sender.uuid,
        next_run_at: null,
        wait: JSON.stringify({ kind: 'timer' }) as never,
      })
      .where('team_id', '=', teamId)
      .execute();
    // As autovacuum would have by the time a real inbox is synced: statistics of the seeded tables.
    await sql`analyze leads; analyze flow_leads; analyze tasks`.execute(db);
    const now = new Date();
    const rows: SandboxInboxRow[] = leads.map((_lead, i) => ({
      team_id: teamId,
      sender_profile_uuid: sender.uuid,
      lead_uuid: null,
      kind: 'message',
      conversation_id: `bench-conv-${i}`,
      member: { linkedin: `bench-lead-${i}` },
      text: `Reply number ${i}: thanks, let us talk next week.`,
      subject: null,
      linkedin_type: 'MEMBER_TO_MEMBER',
      occurred_at: now,
    }));
    await addToSandboxInbox(db, rows);

    // Baseline: the same rows stored with one bare INSERT (no matching, no conversations, no signals).
    const baselineRows = leads.map((lead, i) => ({
      team_id: teamId,
      uuid: newId(),
      sender_profile_uuid: newId(),
      lead_uuid: lead.uuid,
      message_hash: `baseline-${i}`,
      text: rows[i]!.text,
      type: 'inbox' as const,
      automation: 'synced' as const,
      linkedin_type: 'MEMBER_TO_MEMBER',
      status: 'done' as const,
      sent_at: now,
    }));
    const baselineStart = performance.now();
    await db.insertInto('linkedin_messages').values(baselineRows).execute();
    const baselineMs = performance.now() - baselineStart;

    const sync = linkedInMessageDeps({ db, config: deps.config, clock: { now: () => now } });
    const started = performance.now();
    const result = await syncSeat(sync, teamId, sender.uuid, now);
    const syncMs = performance.now() - started;
    if (result.stored !== MESSAGES || result.replies !== MESSAGES) {
      throw new Error(`sync stored ${result.stored} messages and ${result.replies} replies of ${MESSAGES}`);
    }
    const stopped = await db
      .selectFrom('flow_leads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('team_id', '=', teamId)
      .where('reason', '=', 'replied')
      .executeTakeFirstOrThrow();
    log(`synced ${result.stored} messages in ${result.pages} pages, ${stopped.n} enrollments stopped`);

    await db.updateTable('linkedin_sync_state').set({ cursor: null }).where('team_id', '=', teamId).execute();
    const againStart = performance.now();
    const again = await syncSeat(sync, teamId, sender.uuid, now);
    const againMs = performance.now() - againStart;
    if (again.stored !== 0) throw new Error(`a re-sync stored ${again.stored} messages again`);

    const out: BenchRow[] = [
      {
        scenario: 'linkedin-sync',
        metric: `sync ${MESSAGES} new messages (stored, signals, stop rule, events)`,
        value: syncMs,
        unit: 'ms',
        baseline: baselineMs,
        goal: '< 10 s',
        pass: syncMs < 10_000,
      },
      {
        scenario: 'linkedin-sync',
        metric: 'messages per second',
        value: (MESSAGES / syncMs) * 1000,
        unit: '/s',
      },
      {
        scenario: 'linkedin-sync',
        metric: `re-sync of the same ${MESSAGES} (nothing new)`,
        value: againMs,
        unit: 'ms',
        baseline: baselineMs,
      },
      {
        scenario: 'linkedin-sync',
        metric: 'enrollments stopped by the replies',
        value: Number(stopped.n),
        unit: '',
      },
    ];
    return out;
  },
};
