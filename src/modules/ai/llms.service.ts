// A team's LLM connections (/ai/api/llms): CRUD with the API key sealed at rest and never answered, a
// test call, a generate call, and call counts from the LLM log. Base URLs pass the outbound guard when
// saved (and every connection is checked again when it is made).
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Database } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { BlockedTargetError, type OutboundGuard } from '../../lib/net/outbound.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { periodBounds } from '../../lib/period.js';
import type { SecretBox } from '../../lib/secrets.js';
import type { LlmProvider, LlmsTable } from '../llm/llm.tables.js';
import { type ChatMessage, LlmError } from '../llm/llm-client.js';
import type { TeamLlmClient, TeamLlms } from '../llm/team-llms.js';
import * as repo from './llms.repository.js';
import type { CreateLlmBody, GenerateBody, Llm, LlmMetricsBody, UpdateLlmBody } from './llms.schemas.js';

type Row = Selectable<LlmsTable>;

/** Each provider's OpenAI-compatible endpoint and a small default model. */
export const PROVIDER_DEFAULTS: Record<LlmProvider, { base_url: string; model: string } | null> = {
  openai: { base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
  google: { base_url: 'https://generativelanguage.googleapis.com/v1beta/openai', model: 'gemini-2.0-flash' },
  anthropic: { base_url: 'https://api.anthropic.com/v1', model: 'claude-3-5-haiku-latest' },
  perplexity: { base_url: 'https://api.perplexity.ai', model: 'sonar' },
  deepseek: { base_url: 'https://api.deepseek.com/v1', model: 'deepseek-chat' },
  xai: { base_url: 'https://api.x.ai/v1', model: 'grok-3-mini' },
  meta: { base_url: 'https://api.llama.com/compat/v1', model: 'Llama-3.3-70B-Instruct' },
  openai_compatible: null,
};

export function presentLlm(row: Row): Static<typeof Llm> {
  return {
    uuid: row.uuid,
    team_id: row.team_id,
    user_id: row.user_id,
    name: row.name,
    provider: row.provider,
    owner: row.owner,
    base_url: row.base_url,
    model: row.model,
    has_api_key: row.api_key_sealed !== null,
    api_key_last4: row.api_key_last4,
    is_default: row.is_default,
    last_test_at: row.last_test_at,
    last_test_status: row.last_test_status,
    last_test_error: row.last_test_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  } as unknown as Static<typeof Llm>;
}

/** The answer of a call, or a 503 saying why there is none (the call is in the LLM log either way). */
export async function answerOf(client: TeamLlmClient, messages: ChatMessage[], config: object = {}) {
  const started = performance.now();
  try {
    const result = await client.complete({ messages, ...config });
    return {
      text: result.text,
      model: result.model,
      tokens_in: result.usage?.prompt_tokens ?? 0,
      tokens_out: result.usage?.completion_tokens ?? 0,
      latency_ms: Math.round(performance.now() - started),
      llm_uuid: client.llmUuid,
    };
  } catch (error) {
    if (!(error instanceof LlmError)) throw error;
    if (error.failure === 'not_configured') {
      const message =
        'An LLM is not configured for your team: connect one (POST /ai/api/llms) or set LEADFLOW_LLM_BASE_URL.';
      throw new AppError('validation_error', message, { llm_uuid: [message] });
    }
    throw new AppError('service_unavailable', error.message, { failure: error.failure });
  }
}

export function createLlmsService(deps: {
  db: Database;
  box: SecretBox;
  guard: OutboundGuard;
  llms: TeamLlms;
}) {
  const { db, box } = deps;

  async function requireLlm(teamId: number, uuid: string) {
    const row = await repo.selectLlm(db, teamId, uuid);
    if (!row) throw notFound('LLM');
    return row;
  }

  async function checkBaseUrl(url: string) {
    try {
      await deps.guard.check(new URL(url).hostname);
    } catch (error) {
      if (!(error instanceof BlockedTargetError)) throw error;
      throw invalidField('base_url', `base_url: ${error.message}`);
    }
  }

  const keyColumns = (token: string | null) =>
    token === null
      ? { api_key_sealed: null, api_key_last4: null }
      : { api_key_sealed: box.seal(token), api_key_last4: token.slice(-4) };

  return {
    async listLlms(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.llmSort);
      const { rows, total } = await repo.selectLlms(db, teamId, params.filter, page);
      return envelope(rows.map(presentLlm), total, page);
    },

    async getLlm(teamId: number, uuid: string) {
      return presentLlm(await requireLlm(teamId, uuid));
    },

    async createLlm(teamId: number, userId: number, input: Static<typeof CreateLlmBody>) {
      const defaults = PROVIDER_DEFAULTS[input.provider];
      const baseUrl = input.base_url ?? defaults?.base_url;
      const model = input.model ?? defaults?.model;
      if (!baseUrl) throw invalidField('base_url', 'base_url is required for provider openai_compatible');
      if (!model) throw invalidField('model', 'model is required for provider openai_compatible');
      await checkBaseUrl(baseUrl);
      const uuid = newId();
      return db.transaction().execute(async (trx) => {
        const first = !(await trx
          .selectFrom('llms')
          .select('uuid')
          .where('team_id', '=', teamId)
          .executeTakeFirst());
        await trx
          .insertInto('llms')
          .values({
            team_id: teamId,
            uuid,
            user_id: userId,
            name: input.name.trim(),
            provider: input.provider,
            owner: input.owner ?? 'customer',
            base_url: baseUrl,
            model,
            ...keyColumns(input.provider_api_token ?? null),
          })
          .execute();
        if (first || input.is_default) await repo.makeDefault(trx, teamId, uuid);
        return presentLlm((await repo.selectLlm(trx, teamId, uuid)) as Row);
      });
    },

    async updateLlm(teamId: number, uuid: string, input: Static<typeof UpdateLlmBody>) {
      const current = await requireLlm(teamId, uuid);
      const provider = input.provider ?? current.provider;
      if (input.base_url !== undefined) await checkBaseUrl(input.base_url);
      // A new provider brings its endpoint unless one is given.
      const providerDefaults =
        input.provider && input.provider !== current.provider ? PROVIDER_DEFAULTS[provider] : null;
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('llms')
          .set({
            ...(input.name !== undefined ? { name: input.name.trim() } : {}),
            ...(input.provider !== undefined ? { provider } : {}),
            ...(input.owner !== undefined ? { owner: input.owner } : {}),
            ...(input.base_url !== undefined
              ? { base_url: input.base_url }
              : providerDefaults
                ? { base_url: providerDefaults.base_url }
                : {}),
            ...(input.model !== undefined
              ? { model: input.model }
              : providerDefaults
                ? { model: providerDefaults.model }
                : {}),
            ...(input.provider_api_token !== undefined ? keyColumns(input.provider_api_token) : {}),
            updated_at: new Date(),
          })
          .where('team_id', '=', teamId)
          .where('uuid', '=', uuid)
          .execute();
        if (input.is_default === true) await repo.makeDefault(trx, teamId, uuid);
        if (input.is_default === false && current.is_default) {
          await trx
            .updateTable('llms')
            .set({ is_default: false })
            .where('team_id', '=', teamId)
            .where('uuid', '=', uuid)
            .execute();
        }
        return presentLlm((await repo.selectLlm(trx, teamId, uuid)) as Row);
      });
    },

    async deleteLlm(teamId: number, uuid: string) {
      await db.transaction().execute(async (trx) => {
        const deleted = await trx
          .deleteFrom('llms')
          .where('team_id', '=', teamId)
          .where('uuid', '=', uuid)
          .returning('is_default')
          .executeTakeFirst();
        if (!deleted) throw notFound('LLM');
        await repo.clearReferences(trx, teamId, uuid);
        if (deleted.is_default) await repo.promoteOldest(trx, teamId);
      });
    },

    /** One short call; the outcome is kept on the connection (last_test_*) and in the LLM log. */
    async testLlm(teamId: number, uuid: string) {
      const row = await requireLlm(teamId, uuid);
      const client = deps.llms.connectionClient(row, { teamId, source: 'test' });
      const started = performance.now();
      let error: string | null = null;
      try {
        await client.complete({
          messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
          max_tokens: 16,
        });
      } catch (failure) {
        if (!(failure instanceof LlmError)) throw failure;
        error = failure.message;
      }
      const status = error === null ? ('succeeded' as const) : ('failed' as const);
      await db
        .updateTable('llms')
        .set({ last_test_at: new Date(), last_test_status: status, last_test_error: error })
        .where('team_id', '=', teamId)
        .where('uuid', '=', uuid)
        .execute();
      return { status, error, model: row.model, latency_ms: Math.round(performance.now() - started) };
    },

    async generate(teamId: number, uuid: string, input: Static<typeof GenerateBody>) {
      const row = await requireLlm(teamId, uuid);
      return answerOf(
        deps.llms.connectionClient(row, { teamId, source: 'generate' }),
        input.messages,
        input.config,
      );
    },

    async metrics(teamId: number, input: Static<typeof LlmMetricsBody>) {
      const period = periodBounds(input);
      const now = new Date();
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const uuids = [...new Set(input.uuids.map((u) => u.toLowerCase()))];
      const known = await db
        .selectFrom('llms')
        .select('uuid')
        .where('team_id', '=', teamId)
        .where('uuid', 'in', uuids)
        .execute();
      const counts = await repo.selectLlmCallCounts(db, teamId, uuids, period, monthStart);
      const byUuid = new Map(counts.map((c) => [c.llm_uuid, c]));
      return Object.fromEntries(
        known.map(({ uuid }) => {
          const c = byUuid.get(uuid);
          const calls = Number(c?.calls ?? 0);
          const succeeded = Number(c?.succeeded ?? 0);
          return [
            uuid,
            {
              calls,
              succeeded,
              failed: calls - succeeded,
              tokens_in: Number(c?.tokens_in ?? 0),
              tokens_out: Number(c?.tokens_out ?? 0),
              this_month_calls: Number(c?.this_month_calls ?? 0),
            },
          ];
        }),
      );
    },
  };
}

export type LlmsService = ReturnType<typeof createLlmsService>;
