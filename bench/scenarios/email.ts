// The e-mail channel against the local mail system (Dovecot + the SMTP relay of test/mail/):
// - messages per second one process sends through a mailbox's pooled SMTP transport with the pacing
//   limits lifted (the outbound code the engine and send-email use: stored first, sent, Sent copy filed
//   on the mailbox's held IMAP connection), against bare SMTP submissions of messages of the same size to
//   the same server by nodemailer's pooled transport alone, in the same run (goal: >= 50%);
// - time and peak memory (RSS growth) to sync a mailbox of BENCH_EMAIL_SYNC_MESSAGES messages (10,000);
// - how long after a reply is submitted over SMTP the sync loop has stored it, with IMAP IDLE (the poll
//   an hour away).
import nodemailer from 'nodemailer';
import { pino } from 'pino';
import { secretBoxOf } from '../../src/deps.js';
import { newId } from '../../src/lib/ids.js';
import { composeMessage } from '../../src/modules/email/sending/compose.js';
import { sendEmail } from '../../src/modules/email/sending/outbound.js';
import { syncMailbox } from '../../src/modules/email/sync/imap-sync.js';
import { startMailboxSync } from '../../src/modules/email/sync/sync-loop.js';
import { sentFolderOf } from '../../src/modules/email/transport/held-imap.js';
import { createMailAccess, type Mailbox } from '../../src/modules/email/transport/mail-access.js';
import { createLocalFileStore } from '../../src/modules/files/storage.js';
import { makeLeads, makeList, makeSenderProfile } from '../../test/factories.js';
import { mailServersAvailable, startMailSystem } from '../../test/mail/mail-system.js';
import { type BenchRow, median, percentile, type Scenario } from '../lib.js';

const SENDS = Number(process.env.BENCH_EMAIL_SENDS ?? 1000);
const SEND_CONCURRENCY = Number(process.env.BENCH_EMAIL_SEND_CONCURRENCY ?? 8);
const SYNC_MESSAGES = Number(process.env.BENCH_EMAIL_SYNC_MESSAGES ?? 10_000);
const REPLIES = Number(process.env.BENCH_EMAIL_REPLIES ?? 10);

async function until<T>(check: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** CPU seconds this process used since `from` (the relay and its LMTP client run in it too). */
const cpuSeconds = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return ((used.user + used.system) / 1e6).toFixed(2);
};

type MailSystem = Awaited<ReturnType<typeof startMailSystem>>;
type Account = { email: string; password: string };

/**
 * Messages per second nodemailer's pooled transport alone submits to the relay: SENDS messages composed
 * like ours beforehand (same size), SEND_CONCURRENCY at a time, the pool settings of mail-access.ts.
 */
async function bareSubmissions(mail: MailSystem, from: Account, to: string): Promise<number> {
  const messages = await Promise.all(
    Array.from({ length: SENDS }, (_, i) =>
      composeMessage({
        from: { name: 'Sam Sender', address: from.email },
        to: { address: to },
        cc: [],
        bcc: [],
        subject: `Bare ${i}`,
        html: `<p>Hello, message ${i}.</p>`,
        messageId: `<${newId()}@${from.email.split('@')[1]}>`,
        inReplyTo: null,
        references: [],
        emailUuid: newId(),
        unsubscribeUrl: null,
        attachments: [],
      }),
    ),
  );
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: 3,
    maxMessages: 100,
    host: '127.0.0.1',
    port: mail.relay.port,
    secure: false,
    auth: { user: from.email, pass: from.password },
  });
  try {
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: SEND_CONCURRENCY }, async () => {
        for (let i = next++; i < SENDS; i = next++) {
          await transport.sendMail({ envelope: { from: from.email, to: [to] }, raw: messages[i]! });
        }
      }),
    );
    return SENDS / (Number(process.hrtime.bigint() - started) / 1e9);
  } finally {
    transport.close();
  }
}

/** Messages in the mailbox's Sent folder. */
async function sentCopies(access: ReturnType<typeof createMailAccess>, mailbox: Mailbox): Promise<number> {
  const client = await access.imap(mailbox);
  try {
    const status = await client.status(await sentFolderOf(client), { messages: true });
    return status ? (status.messages ?? 0) : 0;
  } finally {
    await client.logout();
  }
}

export const emailScenario: Scenario = {
  name: 'email',
  description: 'SMTP sends/s, syncing a 10,000-message mailbox (time, peak memory), reply latency with IDLE',
  async run(server, log) {
    if (!mailServersAvailable) throw new Error('Dovecot is not installed (see .ci/run)');
    const mail = await startMailSystem();
    const deps = await server.newDatabase('email');
    const db = deps.handle.db;
    const config = deps.config;
    (config.email as { syncPollSeconds: number }).syncPollSeconds = 3600;
    const { user_id, team_id } = await deps.services.identity.createUserWithTeam({
      email: 'bench-email@example.test',
      teamName: 'Bench e-mail',
    });
    const actor = { apiKeyId: 0, userId: user_id, teamId: team_id };
    const sender = await makeSenderProfile(db, team_id, { first_name: 'Sam' });
    const box = secretBoxOf(config);
    const access = createMailAccess({ db, box, config });
    const rows: BenchRow[] = [];
    try {
      const account = await mail.account();
      const created = await deps.services.email.mailboxes.createMailbox(actor, {
        email: account.email,
        sender_name: 'Sam Sender',
        sender_profile_uuid: sender.uuid,
        connection_settings: mail.settings(account) as never,
      } as never);
      if (created.status !== 'active') throw new Error(`mailbox not active: ${created.status}`);
      const mailbox = await db
        .selectFrom('mailboxes')
        .selectAll()
        .where('uuid', '=', created.uuid)
        .executeTakeFirstOrThrow();

      // 1. Sends, limits lifted: first bare SMTP submissions of the same messages to the same server
      // (nodemailer's pooled transport alone, our pool settings and concurrency), then ours.
      const recipient = await mail.account();
      let cpu = process.cpuUsage();
      const bare = await bareSubmissions(mail, account, recipient.email);
      const bareCpu = cpuSeconds(cpu);
      log(`  bare SMTP: ${SENDS} in ${(SENDS / bare).toFixed(1)} s, ${bareCpu} s CPU of this process`);
      cpu = process.cpuUsage();
      rows.push({
        scenario: 'email',
        metric: `baseline: bare SMTP submissions (pooled, ${SEND_CONCURRENCY} concurrent)`,
        value: bare,
        unit: 'msg/s',
      });
      const outbound = { db, mail: access, config, box, files: createLocalFileStore(config.filesDir) };
      let next = 0;
      const started = process.hrtime.bigint();
      await Promise.all(
        Array.from({ length: SEND_CONCURRENCY }, async () => {
          for (let i = next++; i < SENDS; i = next++) {
            const result = await sendEmail(outbound, {
              mailbox,
              userId: null,
              senderProfileUuid: sender.uuid,
              leadUuid: null,
              flowUuid: null,
              flowNodeId: null,
              taskUuid: null,
              to: { address: recipient.email },
              cc: [],
              bcc: [],
              subject: `Bench ${i}`,
              html: `<p>Hello, message ${i}.</p>`,
              attachments: [],
              thread: null,
              tracking: { opens: false, clicks: false, unsubscribe: false },
              now: new Date(),
            });
            if (result.failure) throw new Error(`send ${i}: ${result.failure.message}`);
          }
        }),
      );
      await access.sentCopiesSettled();
      const ourCpu = cpuSeconds(cpu);
      const sendSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      log(
        `  sent ${SENDS} in ${sendSeconds.toFixed(1)} s (Sent copies filed), ${ourCpu} s CPU of this process`,
      );
      const filed = await sentCopies(access, mailbox);
      if (filed < SENDS) throw new Error(`${filed} Sent copies filed for ${SENDS} sends`);
      const rate = SENDS / sendSeconds;
      rows.push({
        scenario: 'email',
        metric: `send (${SEND_CONCURRENCY} concurrent, Sent copy filed)`,
        value: rate,
        unit: 'msg/s',
        baseline: bare,
        goal: '>= 50% of bare SMTP',
        pass: rate / bare >= 0.5,
      });

      // 2. Sync of a big mailbox: messages appended straight into a fresh account's INBOX.
      const big = await mail.account();
      const bigMailbox = await deps.services.email.mailboxes.createMailbox(actor, {
        email: big.email,
        sender_name: 'Big',
        sender_profile_uuid: sender.uuid,
        connection_settings: mail.settings(big) as never,
      } as never);
      const bigRow = await db
        .selectFrom('mailboxes')
        .selectAll()
        .where('uuid', '=', bigMailbox.uuid)
        .executeTakeFirstOrThrow();
      const filler = await access.imap(bigRow);
      const appendStart = Date.now();
      for (let i = 0; i < SYNC_MESSAGES; i++) {
        const raw = `From: Person ${i} <p${i}@example.test>\r\nTo: ${big.email}\r\nSubject: Message ${i}\r\nMessage-ID: <bench-${i}@example.test>\r\nDate: ${new Date().toUTCString()}\r\nContent-Type: text/plain\r\n\r\nHello ${i}, ${'lorem ipsum '.repeat(40)}\r\n`;
        await filler.append('INBOX', raw);
      }
      await filler.logout();
      log(`  appended ${SYNC_MESSAGES} messages in ${((Date.now() - appendStart) / 1000).toFixed(1)} s`);
      global.gc?.();
      const baseRss = process.memoryUsage().rss;
      let peakRss = baseRss;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }, 25);
      const syncStart = process.hrtime.bigint();
      const result = await syncMailbox(
        { db, mail: access, batchSize: config.email.syncBatchSize, historyDays: 36_500 },
        bigRow,
        new Date(),
      );
      const syncSeconds = Number(process.hrtime.bigint() - syncStart) / 1e9;
      clearInterval(sampler);
      if (result.fetched !== SYNC_MESSAGES) throw new Error(`synced ${result.fetched} of ${SYNC_MESSAGES}`);
      log(`  synced ${result.fetched} in ${syncSeconds.toFixed(1)} s`);
      rows.push(
        { scenario: 'email', metric: `sync ${SYNC_MESSAGES} messages`, value: syncSeconds, unit: 's' },
        { scenario: 'email', metric: 'sync throughput', value: SYNC_MESSAGES / syncSeconds, unit: 'msg/s' },
        {
          scenario: 'email',
          metric: 'sync peak RSS growth',
          value: (peakRss - baseRss) / 1048576,
          unit: 'MiB',
        },
      );

      // 3. Reply latency with IDLE (the poll an hour away).
      const list = await makeList(db, team_id, 'bench');
      const person = await mail.account();
      const [lead] = await makeLeads(db, team_id, list.uuid, [
        { first_name: 'Ida', work_email: person.email },
      ]);
      const sent = await sendEmail(outbound, {
        mailbox,
        userId: null,
        senderProfileUuid: sender.uuid,
        leadUuid: lead!.uuid,
        flowUuid: null,
        flowNodeId: null,
        taskUuid: null,
        to: { address: person.email },
        cc: [],
        bcc: [],
        subject: 'Ping',
        html: '<p>Ping</p>',
        attachments: [],
        thread: null,
        tracking: { opens: false, clicks: false, unsubscribe: false },
        now: new Date(),
      });
      await db.updateTable('mailboxes').set({ status: 'inactive' }).where('uuid', '=', bigRow.uuid).execute();
      const loop = startMailboxSync({ db, mail: access, config, log: pino({ level: 'silent' }) });
      const latencies: number[] = [];
      try {
        await until(async () => loop.watching() === 1, 60_000);
        const transport = nodemailer.createTransport({
          host: '127.0.0.1',
          port: mail.relay.port,
          secure: false,
          auth: { user: person.email, pass: person.password },
        });
        for (let i = 0; i < REPLIES; i++) {
          const messageId = `<reply-${i}-${Date.now()}@example.test>`;
          const t0 = Date.now();
          await transport.sendMail({
            from: person.email,
            to: account.email,
            subject: 'Re: Ping',
            text: `Pong ${i}`,
            messageId,
            inReplyTo: sent.email.message_id,
          });
          await until(
            async () =>
              db
                .selectFrom('emails')
                .select('uuid')
                .where('team_id', '=', team_id)
                .where('message_id', '=', messageId)
                .executeTakeFirst(),
            30_000,
          );
          latencies.push(Date.now() - t0);
        }
        transport.close();
      } finally {
        await loop.stop();
      }
      log(`  reply latencies (ms): ${latencies.join(', ')}`);
      rows.push(
        {
          scenario: 'email',
          metric: 'reply detection with IDLE, median',
          value: median(latencies),
          unit: 'ms',
        },
        {
          scenario: 'email',
          metric: 'reply detection with IDLE, max',
          value: percentile(latencies, 100),
          unit: 'ms',
        },
      );
    } finally {
      await access.close();
      // The pools' QUITs are on their way: the relay fails on connections still open when it closes.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await mail.close();
    }
    return rows;
  },
};
