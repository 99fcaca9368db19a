// Which LLM a call of one team goes to, and the log of every call. A call names the connection it wants
// (an AI template's llm_uuid, an agent's, or the one of POST /ai/api/llms/{uuid}/generate); without one,
// or when the name matches none of the team's connections, the team's default connection is used, and
// without that the server-wide endpoint (LEADFLOW_LLM_*). Connections' base URLs were chosen by a user,
// so their calls go through the outbound guard (kind `llm`); the server's endpoint is the operator's.
// Each call through a client from here is recorded in llm_logs: model, tokens, latency, status, the
// messages sent and the answer, and the flow, contact and template it was for.
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { invalidField } from '../../lib/errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import type { OutboundGuard } from '../../lib/net/outbound.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { LlmLogSource, LlmsTable } from './llm.tables.js';
import { type ChatRequest, type LlmClient, LlmError } from './llm-client.js';
import { createLlmClient } from './openai-client.js';

export type LlmCallContext = {
  teamId: number;
  source: LlmLogSource;
  /** The connection the caller names; one the team does not have means its default. */
  llmUuid?: string | null | undefined;
  flowUuid?: string | null | undefined;
  leadUuid?: string | null | undefined;
  aiTemplateUuid?: string | null | undefined;
};

/** A client for one call site: `llmUuid` is the team connection it uses (null: the server's endpoint). */
export type TeamLlmClient = LlmClient & { readonly llmUuid: string | null; readonly model: string };

export type LlmConnectionRow = Pick<LlmsTable, 'uuid' | 'base_url' | 'model' | 'api_key_sealed'> & {
  updated_at: Date;
};

export type TeamLlms = {
  /** The named connection, else the team's default, else the server's endpoint; every call is logged. */
  clientFor(context: LlmCallContext): Promise<TeamLlmClient>;
  /** The client of one connection (its test call, generate), logged. */
  connectionClient(connection: LlmConnectionRow, context: LlmCallContext): TeamLlmClient;
};

const CACHED_CLIENTS = 500;

export function createTeamLlms(deps: {
  db: Database;
  config: Config;
  box: SecretBox;
  server: LlmClient;
  guard: OutboundGuard;
}): TeamLlms {
  const { db, config } = deps;
  // One SDK client (and concurrency limit) per connection version, so calls share its limit.
  const clients = new Map<string, LlmClient>();

  function baseClient(row: LlmConnectionRow): LlmClient {
    const key = `${row.uuid}:${row.updated_at.getTime()}`;
    let client = clients.get(key);
    if (!client) {
      client = createLlmClient({
        ...config.llm,
        baseUrl: row.base_url,
        apiKey: row.api_key_sealed ? deps.box.openText(row.api_key_sealed) : undefined,
        model: row.model,
        fetch: deps.guard.fetch({ timeoutMs: config.llm.timeoutMs }),
      });
      if (clients.size >= CACHED_CLIENTS) clients.delete(clients.keys().next().value as string);
      clients.set(key, client);
    }
    return client;
  }

  function logged(
    base: LlmClient,
    context: LlmCallContext,
    llmUuid: string | null,
    model: string,
  ): TeamLlmClient {
    const record = async (entry: {
      request: ChatRequest;
      status: 'succeeded' | 'failed';
      model: string;
      started: number;
      answer?: string;
      error?: string;
      tokensIn?: number;
      tokensOut?: number;
    }) => {
      try {
        await db
          .insertInto('llm_logs')
          .values({
            team_id: context.teamId,
            uuid: newId(),
            llm_uuid: llmUuid,
            source: context.source,
            purpose: entry.request.purpose ?? 'generation',
            model: entry.model,
            status: entry.status,
            error: entry.error ?? null,
            tokens_in: entry.tokensIn ?? 0,
            tokens_out: entry.tokensOut ?? 0,
            latency_ms: Math.round(performance.now() - entry.started),
            messages: JSON.stringify(entry.request.messages),
            answer: entry.answer ?? null,
            flow_uuid: context.flowUuid ?? null,
            lead_uuid: context.leadUuid ?? null,
            ai_template_uuid: context.aiTemplateUuid ?? null,
          })
          .execute();
      } catch {
        // The log is a record of calls, not part of them: a failed insert never fails the call.
      }
    };
    return {
      configured: base.configured,
      llmUuid,
      model,
      async complete(request) {
        if (!base.configured) return base.complete(request);
        const started = performance.now();
        try {
          const result = await base.complete(request);
          await record({
            request,
            status: 'succeeded',
            model: result.model,
            started,
            answer: result.text,
            tokensIn: result.usage?.prompt_tokens ?? 0,
            tokensOut: result.usage?.completion_tokens ?? 0,
          });
          return result;
        } catch (error) {
          await record({
            request,
            status: 'failed',
            model: request.model ?? model,
            started,
            error: error instanceof Error ? error.message : String(error),
          });
          throw error instanceof LlmError
            ? error
            : new LlmError('connection_error', String(error), { cause: error });
        }
      },
    };
  }

  const connectionClient = (row: LlmConnectionRow, context: LlmCallContext) =>
    logged(baseClient(row), context, row.uuid, row.model);

  return {
    connectionClient,
    async clientFor(context) {
      const columns = ['uuid', 'base_url', 'model', 'api_key_sealed', 'updated_at'] as const;
      const named = isUuid(context.llmUuid)
        ? await db
            .selectFrom('llms')
            .select(columns)
            .where('team_id', '=', context.teamId)
            .where('uuid', '=', context.llmUuid as string)
            .executeTakeFirst()
        : undefined;
      const row =
        named ??
        (await db
          .selectFrom('llms')
          .select(columns)
          .where('team_id', '=', context.teamId)
          .where('is_default', '=', true)
          .executeTakeFirst());
      return row ? connectionClient(row, context) : logged(deps.server, context, null, config.llm.model);
    },
  };
}

/** 422 naming `field` unless `uuid` is one of the team's LLM connections (null and undefined pass). */
export async function requireLlmConnection(
  db: Database,
  teamId: number,
  uuid: string | null | undefined,
  field: string,
): Promise<void> {
  if (uuid === null || uuid === undefined) return;
  const row = await db
    .selectFrom('llms')
    .select('uuid')
    .where('team_id', '=', teamId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  if (!row) throw invalidField(field, `${field}: no LLM connection of yours has the UUID ${uuid}.`);
}

/** Team LLMs that are always `client`, unlogged (tests and tools without a database of connections). */
export function fixedLlms(client: LlmClient): TeamLlms {
  const fixed: TeamLlmClient = {
    configured: client.configured,
    complete: (request) => client.complete(request),
    llmUuid: null,
    model: '',
  };
  return { clientFor: async () => fixed, connectionClient: () => fixed };
}
