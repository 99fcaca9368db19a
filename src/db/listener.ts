// A LISTEN connection that stays up: its own client (not one of the pool's), checked with a ping so a
// connection that died silently is noticed, and reconnected with backoff. Whoever relies on its
// notifications is told when it is down (`onDown`) and when it listens again (`onUp`): notifications
// sent in between are lost, so anything kept because "we would have been told" must be dropped then.
import pg from 'pg';
import type { Logger } from 'pino';

export type ListenerOptions = {
  connectionString: string;
  channel: string;
  /** Shown in pg_stat_activity. */
  applicationName: string;
  onNotification(payload: string): void;
  /** Listening (again); notifications from now on are delivered. */
  onUp(): void;
  /** The connection is gone; notifications may be missed until onUp. */
  onDown(): void;
  log: Logger;
  /** How often the connection is checked (default 5 s); a failed check counts as a lost connection. */
  pingIntervalMs?: number;
  /** Longest wait between reconnection attempts (default 5 s). */
  maxRetryDelayMs?: number;
};

export type ListenerHandle = { stop(): Promise<void> };

/** Starts listening; resolves once the first LISTEN is in place (rejects if it cannot be). */
export async function startListener(options: ListenerOptions): Promise<ListenerHandle> {
  const pingInterval = options.pingIntervalMs ?? 5_000;
  const maxDelay = options.maxRetryDelayMs ?? 5_000;
  let client: pg.Client | undefined;
  let stopped = false;
  let ping: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: options.connectionString,
      application_name: options.applicationName,
      keepAlive: true,
      query_timeout: Math.max(pingInterval, 1_000),
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      lose(next, error);
    };
    next.on('error', onLost);
    next.on('end', () => onLost());
    next.on('notification', (message) => {
      if (message.channel === options.channel && message.payload !== undefined) {
        options.onNotification(message.payload);
      }
    });
    try {
      await next.connect();
      await next.query(`listen ${next.escapeIdentifier(options.channel)}`);
    } catch (error) {
      lost = true;
      next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    failures = 0;
    options.onUp();
    ping = setInterval(() => {
      next.query('select 1').catch((error: Error) => onLost(error));
    }, pingInterval);
    ping.unref();
  }

  function lose(lostClient: pg.Client, error?: Error): void {
    if (client !== lostClient) return;
    client = undefined;
    clearInterval(ping);
    lostClient.end().catch(() => {});
    if (stopped) return;
    options.onDown();
    options.log.warn({ err: error, channel: options.channel }, 'LISTEN connection lost; reconnecting');
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    const delay = Math.min(maxDelay, 100 * 2 ** failures);
    failures++;
    retry = setTimeout(() => {
      connect()
        .then(() => {
          if (!stopped) options.log.info({ channel: options.channel }, 'LISTEN connection restored');
        })
        .catch((error: Error) => {
          if (stopped) return;
          options.log.warn({ err: error, channel: options.channel }, 'LISTEN reconnect failed; retrying');
          scheduleReconnect();
        });
    }, delay);
    retry.unref();
  }

  await connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(ping);
      const current = client;
      client = undefined;
      options.onDown();
      await current?.end().catch(() => {});
    },
  };
}
