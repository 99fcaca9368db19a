// The LLM log (/ai/api/llm-logs): every call Leadflow made to a language model - template renders and
// their validations, flow steps composing AI-template messages, ask, generate and test calls - with the
// model, tokens, latency, outcome, the messages sent and the answer, and what it was for. Rows are
// written by the LLM layer (../llm/team-llms.ts) and kept like events (LEADFLOW_EVENT_RETENTION_DAYS).
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { pruneTeamByTeam, RETENTION_BATCH } from '../../db/retention.js';
import { DateTime, Envelope, ListQuery, Nullable, Uuid } from '../../http/schemas.js';
import { handleJob, jobType } from '../../jobs/queue.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { compileFilter, type FilterSpec } from '../../lib/filter.js';
import {
  envelope,
  orderByClause,
  type PageParams,
  resolvePage,
  type SortSpec,
} from '../../lib/pagination.js';
import { LLM_LOG_SOURCES } from '../llm/llm.tables.js';

export const llmLogFilterFields: FilterSpec['fields'] = {
  uuid: { type: 'uuid', column: 'llm_logs.uuid' },
  llm_uuid: { type: 'uuid', column: 'llm_logs.llm_uuid' },
  source: { type: 'enum', column: 'llm_logs.source', values: [...LLM_LOG_SOURCES] },
  purpose: { type: 'enum', column: 'llm_logs.purpose', values: ['generation', 'validation'] },
  status: { type: 'enum', column: 'llm_logs.status', values: ['succeeded', 'failed'] },
  model: { type: 'string', column: 'llm_logs.model' },
  flow_uuid: { type: 'uuid', column: 'llm_logs.flow_uuid' },
  lead_uuid: { type: 'uuid', column: 'llm_logs.lead_uuid' },
  ai_template_uuid: { type: 'uuid', column: 'llm_logs.ai_template_uuid' },
  created_at: { type: 'datetime', column: 'llm_logs.created_at' },
};
const llmLogFilter: FilterSpec = { name: 'LLM log filter', fields: llmLogFilterFields };

export const llmLogSort: SortSpec = {
  fields: {
    created_at: 'llm_logs.created_at',
    latency_ms: 'llm_logs.latency_ms',
    tokens_in: 'llm_logs.tokens_in',
    tokens_out: 'llm_logs.tokens_out',
    uuid: 'llm_logs.uuid',
  },
  tiebreaker: 'llm_logs.uuid',
};

export const LlmLog = Type.Object({
  uuid: Uuid(),
  team_id: Type.Integer({ description: 'Team the call was made for' }),
  llm_uuid: Nullable(Uuid('The connection used (null: the server-wide LEADFLOW_LLM_* endpoint)')),
  source: Type.Enum([...LLM_LOG_SOURCES], {
    description:
      'What made the call: template_render (POST .../ai-templates/render), flow_node (a flow step ' +
      'composing an AI-template message), ask, generate, test',
  }),
  purpose: Type.Enum(['generation', 'validation'], {
    description: "generation: writing the text; validation: the template's check of it",
  }),
  model: Type.String({ description: 'The model asked (the one that answered, when it did)' }),
  status: Type.Enum(['succeeded', 'failed'], { description: 'Whether a usable answer came back' }),
  error: Nullable(Type.String({ description: 'Why not' })),
  tokens_in: Type.Integer({ description: 'Prompt tokens the endpoint reported (0: none reported)' }),
  tokens_out: Type.Integer({ description: 'Answer tokens the endpoint reported' }),
  latency_ms: Type.Integer({ description: 'How long the call took' }),
  messages: Nullable(
    Type.Array(
      Type.Object({
        role: Type.String({ description: 'system, user or assistant' }),
        content: Type.String({ description: 'The rendered text sent' }),
      }),
      { description: 'The messages sent (the rendered prompt)' },
    ),
  ),
  answer: Nullable(Type.String({ description: 'What the model answered' })),
  flow_uuid: Nullable(Uuid('The flow the call was for')),
  lead_uuid: Nullable(Uuid('The contact the call was for')),
  ai_template_uuid: Nullable(Uuid('The AI template rendered')),
  created_at: DateTime(),
});
export const LlmLogPage = Envelope(LlmLog);
export const LlmLogsQuery = ListQuery(llmLogSort, Object.keys(llmLogFilterFields));

export function createLlmLogsService(deps: { db: Database }) {
  const { db } = deps;
  return {
    async listLlmLogs(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, llmLogSort);
      const where = compileFilter(llmLogFilter, params.filter);
      let base = db.selectFrom('llm_logs').where('llm_logs.team_id', '=', teamId);
      if (where) base = base.where(where);
      const [rows, count] = await Promise.all([
        base
          .selectAll()
          .orderBy(orderByClause(page, llmLogSort))
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return envelope(rows, Number(count.total), page);
    },

    async getLlmLog(teamId: number, uuid: string) {
      const row = await db
        .selectFrom('llm_logs')
        .selectAll()
        .where('team_id', '=', teamId)
        .where('uuid', '=', uuid)
        .executeTakeFirst();
      if (!row) throw notFound('LLM log entry');
      return row;
    },
  };
}

export type LlmLogsService = ReturnType<typeof createLlmLogsService>;

export const pruneLlmLogsJob = jobType('ai.pruneLlmLogs', Type.Object({}), {
  schedule: '41 * * * *',
  maxAttempts: 3,
});

/** Deletes the log entries recorded before `before`, team by team in batches of its primary key. */
export async function pruneLlmLogs(db: Database, before: Date): Promise<number> {
  return pruneTeamByTeam(db, before, async (teamId, bound) => {
    const result = await sql`
      delete from llm_logs g
      where g.team_id = ${teamId} and g.uuid in (
        select o.uuid from llm_logs o
        where o.team_id = ${teamId} and o.uuid < ${bound}::uuid
        order by o.uuid
        limit ${RETENTION_BATCH}
      )
    `.execute(db);
    return Number(result.numAffectedRows ?? 0);
  });
}

export function pruneLlmLogsHandler(deps: { db: Database; clock: Clock; retentionDays: number }) {
  return handleJob(pruneLlmLogsJob, async (_payload, { log }) => {
    if (deps.retentionDays === 0) return;
    const before = new Date(deps.clock.now().getTime() - deps.retentionDays * 86_400_000);
    const deleted = await pruneLlmLogs(deps.db, before);
    if (deleted > 0) log.info({ deleted, before }, 'pruned old LLM log entries');
  });
}
