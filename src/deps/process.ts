// What one process shares between its parts (one per configuration or database handle): the LLM
// clients, the secret box and the pool of seat browsers.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { ServiceDeps } from '../deps.js';
import { outboundGuard, outboundPolicy } from '../lib/net/outbound.js';
import { loadSecretBox, type SecretBox } from '../lib/secrets.js';
import { createSeatBrowsers, type SeatBrowsers } from '../modules/browsers/chromium/seat-browsers.js';
import type { LlmClient } from '../modules/llm/llm-client.js';
import { createLlmClient } from '../modules/llm/openai-client.js';
import { createTeamLlms, type TeamLlms } from '../modules/llm/team-llms.js';

const llmClients = new WeakMap<Config['llm'], LlmClient>();

/** One LLM client per process, so its concurrency limit covers every caller (AI templates, engine). */
export function llmClientOf(config: Config): LlmClient {
  let client = llmClients.get(config.llm);
  if (!client) {
    client = createLlmClient(config.llm);
    llmClients.set(config.llm, client);
  }
  return client;
}

const teamLlmsByDb = new WeakMap<Database, TeamLlms>();

/**
 * The LLMs of every team in this process (one per database handle, so the engine, the API and the
 * preview share each connection's client and concurrency limit).
 */
export function teamLlmsOf(deps: Pick<ServiceDeps, 'db' | 'config'>): TeamLlms {
  let llms = teamLlmsByDb.get(deps.db);
  if (!llms) {
    llms = createTeamLlms({
      db: deps.db,
      config: deps.config,
      box: secretBoxOf(deps.config),
      server: llmClientOf(deps.config),
      guard: outboundGuard(outboundPolicy(deps.config, 'llm')),
    });
    teamLlmsByDb.set(deps.db, llms);
  }
  return llms;
}

/** The secret box of this installation (configured key or the data dir's key file). */
export function secretBoxOf(config: Config): SecretBox {
  return loadSecretBox({
    key: config.secretKey,
    previous: config.secretKeyPrevious,
    dataDir: config.dataDir,
  });
}

const seatBrowserPools = new WeakMap<Database, SeatBrowsers>();

/**
 * This process's pool of seat browsers (one per database handle, so the engine, the readers, the seats
 * API and the login live view share it). Nothing starts until a seat's browser is first needed.
 */
export function seatBrowsersOf(deps: ServiceDeps, logger: Logger | undefined = deps.logger): SeatBrowsers {
  let pool = seatBrowserPools.get(deps.db);
  if (!pool) {
    pool = createSeatBrowsers({
      config: deps.config,
      db: deps.db,
      secretBox: secretBoxOf(deps.config),
      proxyGuard: outboundGuard(outboundPolicy(deps.config, 'proxy')),
      ...(logger ? { logger: logger.child({ component: 'seat-browsers' }) } : {}),
      now: () => deps.clock.now(),
    });
    seatBrowserPools.set(deps.db, pool);
  }
  return pool;
}

/** Closes this process's seat browsers, saving their sessions (shutdown). */
export async function closeSeatBrowsers(db: Database): Promise<void> {
  await seatBrowserPools.get(db)?.closeAll();
}
