// IMAP connections held per mailbox and process for filing Sent copies, so a send does not log in
// again: one ImapFlow per mailbox, opened on first use and kept under a key (settings, sealed secrets,
// access token, checked address - like the pooled SMTP transports); a changed key, or a connection that
// is no longer usable (the server closed it, a socket error or timeout: an ImapFlow cannot reconnect),
// gets a new one. Commands on one connection run one at a time: the copies that queued up while one
// APPEND ran go together in the next (MULTIAPPEND, RFC 3502, where the server offers it - one commit
// for all of them instead of one each). The Sent folder's path is looked up once per connection.
// Closed after `idleMs` without use, and on forget()/close().
import type { ImapFlow } from 'imapflow';

/** The path of the mailbox's Sent folder: the one marked \Sent (RFC 6154), else `Sent`. */
export async function sentFolderOf(client: ImapFlow): Promise<string> {
  const folders = await client.list();
  return folders.find((f) => f.specialUse === '\\Sent')?.path ?? 'Sent';
}

/** How to reach a mailbox's IMAP server now: the key of its settings, and a connect that logs in. */
export type ImapDial = { key: string; connect: () => Promise<ImapFlow> };

type Held = { key: string; client: ImapFlow; sent: string | undefined; timer?: NodeJS.Timeout };
type Copy = { raw: Buffer; flags: string[]; done: (error?: unknown) => void };
type Queue = { dial: ImapDial; copies: Copy[]; running: Promise<void> | undefined };

/** At most this many copies (and about this many bytes) go in one MULTIAPPEND. */
const BATCH_COPIES = 50;
const BATCH_BYTES = 10 * 1024 * 1024;

/** imapflow's command runner (append() takes one message; MULTIAPPEND goes through it the same way). */
type CommandRunner = {
  exec(command: string, attributes: unknown[], options: object): Promise<{ next(): void }>;
};

/**
 * One APPEND of several messages (RFC 3502: all stored or none). Only for a plain ASCII path: imapflow
 * would encode another one (modified UTF-7) before sending it.
 */
async function multiAppend(client: ImapFlow, path: string, copies: Copy[]) {
  const attributes: unknown[] = [{ type: 'ATOM', value: path }];
  for (const copy of copies) {
    attributes.push(copy.flags.map((flag) => ({ type: 'ATOM', value: flag })));
    attributes.push({ type: 'LITERAL', value: copy.raw, isLiteral8: false });
  }
  const response = await (client as unknown as CommandRunner).exec('APPEND', attributes, {});
  response.next();
}

const canBatch = (client: ImapFlow, path: string, copies: Copy[]) =>
  copies.length > 1 &&
  client.capabilities.has('MULTIAPPEND') &&
  /^[\x20-\x25\x27-\x7e]+$/.test(path) &&
  copies.every((copy) => !copy.raw.includes(0));

export type HeldImap = ReturnType<typeof createHeldImap>;

export function createHeldImap(options: { idleMs: number }) {
  const held = new Map<string, Held>();
  const queues = new Map<string, Queue>();

  function drop(mailboxUuid: string, entry: Held) {
    if (held.get(mailboxUuid) === entry) held.delete(mailboxUuid);
    clearTimeout(entry.timer);
    if (entry.client.usable) entry.client.logout().catch(() => entry.client.close());
    else entry.client.close();
  }

  /** The held connection under `dial.key`, or a new one in its place; `fresh` when just opened. */
  async function connection(mailboxUuid: string, dial: ImapDial): Promise<{ entry: Held; fresh: boolean }> {
    const current = held.get(mailboxUuid);
    if (current?.key === dial.key && current.client.usable) {
      clearTimeout(current.timer);
      return { entry: current, fresh: false };
    }
    if (current) drop(mailboxUuid, current);
    const client = await dial.connect();
    const entry: Held = { key: dial.key, client, sent: undefined };
    // The server hung up (or a timeout closed it): let it go now rather than at the next use.
    client.on('close', () => {
      if (held.get(mailboxUuid) !== entry) return;
      held.delete(mailboxUuid);
      clearTimeout(entry.timer);
    });
    held.set(mailboxUuid, entry);
    return { entry, fresh: true };
  }

  async function appendOn(entry: Held, copies: Copy[]) {
    entry.sent ??= await sentFolderOf(entry.client);
    if (canBatch(entry.client, entry.sent, copies)) return multiAppend(entry.client, entry.sent, copies);
    for (const copy of copies) await entry.client.append(entry.sent, copy.raw, copy.flags);
  }

  /** Files `copies` on the held connection; one that turns out dead during the command is replaced once. */
  async function file(mailboxUuid: string, dial: ImapDial, copies: Copy[]) {
    let { entry, fresh } = await connection(mailboxUuid, dial);
    try {
      await appendOn(entry, copies);
    } catch (error) {
      if (entry.client.usable) throw error;
      drop(mailboxUuid, entry);
      if (fresh) throw error;
      ({ entry } = await connection(mailboxUuid, dial));
      await appendOn(entry, copies);
    } finally {
      if (held.get(mailboxUuid) === entry && !entry.client.usable) drop(mailboxUuid, entry);
    }
    if (held.get(mailboxUuid) !== entry) return;
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => drop(mailboxUuid, entry), options.idleMs);
    entry.timer.unref();
  }

  /** Files the mailbox's queued copies, a batch at a time, until none is left. */
  async function pump(mailboxUuid: string, queue: Queue) {
    while (queue.copies.length > 0) {
      let bytes = 0;
      let count = 0;
      while (count < queue.copies.length && count < BATCH_COPIES && bytes < BATCH_BYTES) {
        bytes += queue.copies[count]!.raw.length;
        count++;
      }
      const batch = queue.copies.splice(0, count);
      try {
        await file(mailboxUuid, queue.dial, batch);
        for (const copy of batch) copy.done();
      } catch (error) {
        for (const copy of batch) copy.done(error ?? new Error('APPEND failed'));
      }
    }
    queue.running = undefined;
    if (queues.get(mailboxUuid) === queue) queues.delete(mailboxUuid);
  }

  return {
    /**
     * Files `raw` in the mailbox's Sent folder on its held connection, after (or with) the copies
     * already queued for it. Resolves once the server stored it.
     */
    appendToSent(mailboxUuid: string, dial: ImapDial, raw: Buffer | string, flags: string[]): Promise<void> {
      return new Promise((resolve, reject) => {
        let queue = queues.get(mailboxUuid);
        if (!queue) {
          queue = { dial, copies: [], running: undefined };
          queues.set(mailboxUuid, queue);
        }
        queue.dial = dial;
        const copy: Copy = {
          raw: typeof raw === 'string' ? Buffer.from(raw) : raw,
          flags,
          done: (error) => (error === undefined ? resolve() : reject(error)),
        };
        queue.copies.push(copy);
        queue.running ??= pump(mailboxUuid, queue);
      });
    },

    forget(mailboxUuid: string) {
      const entry = held.get(mailboxUuid);
      if (entry) drop(mailboxUuid, entry);
    },

    /** Resolves once every copy queued so far is filed or failed. */
    async settled() {
      while (queues.size > 0) await Promise.all([...queues.values()].map((queue) => queue.running));
    },

    /** Files what is queued (for at most `waitMs`), then closes every held connection. */
    async close(waitMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
      });
      await Promise.race([this.settled(), timeout]);
      clearTimeout(timer);
      for (const [mailboxUuid, entry] of [...held]) drop(mailboxUuid, entry);
    },
  };
}
