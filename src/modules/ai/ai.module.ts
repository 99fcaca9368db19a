// The AI API's services: LLM connections, agents, ask and the LLM log (the variables list and the
// templates' render live with the AI templates).
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { OutboundGuard } from '../../lib/net/outbound.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { TeamLlms } from '../llm/team-llms.js';
import { createAgentsService } from './agents.js';
import { createAsk } from './ask.js';
import { createLlmLogsService } from './llm-logs.js';
import { createLlmsService } from './llms.service.js';

export function createAiModule(deps: {
  db: Database;
  config: Config;
  box: SecretBox;
  guard: OutboundGuard;
  llms: TeamLlms;
}) {
  return {
    llms: createLlmsService(deps),
    agents: createAgentsService(deps),
    ask: createAsk(deps),
    logs: createLlmLogsService(deps),
  };
}

export type AiModule = ReturnType<typeof createAiModule>;
