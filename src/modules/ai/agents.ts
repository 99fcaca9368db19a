// AI agents (/flows/api/ai-agents, also /ai/api/agents): a named system prompt (classification_prompt)
// on one of the team's LLM connections (classification_llm_uuid, else the team's default) with its call
// settings - the hosted service's object, stored and served. Nothing in Leadflow runs an agent yet.
import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Database } from '../../db/database.js';
import { DateTime, Envelope, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import { invalidField, notFound } from '../../lib/errors.js';
import { compileFilter, type FilterSpec, textContains } from '../../lib/filter.js';
import { newId } from '../../lib/ids.js';
import {
  envelope,
  orderByClause,
  type PageParams,
  resolvePage,
  type SortSpec,
} from '../../lib/pagination.js';
import { requireLlmConnection } from '../llm/team-llms.js';
import type { AiAgentsTable } from './ai.tables.js';
import { LlmCallConfig } from './llms.schemas.js';

export const agentFilterFields: FilterSpec['fields'] = {
  q: {
    type: 'string',
    description: 'Name contains (case-insensitive)',
    compile: (value, { path }) => textContains(sql.ref('ai_agents.name'), value, path),
  },
  uuid: { type: 'uuid', column: 'ai_agents.uuid' },
  classification_llm_uuid: { type: 'uuid', column: 'ai_agents.classification_llm_uuid' },
};
const agentFilter: FilterSpec = { name: 'AI agent filter', fields: agentFilterFields };

export const agentSort: SortSpec = {
  fields: {
    created_at: 'ai_agents.created_at',
    updated_at: 'ai_agents.updated_at',
    name: 'ai_agents.name',
    uuid: 'ai_agents.uuid',
  },
  tiebreaker: 'ai_agents.uuid',
};

const fields = {
  description: Nullable(Type.String({ maxLength: 10_000, description: 'What the agent is for' })),
  avatar_url: Nullable(Type.String({ format: 'uri', maxLength: 2000, description: 'Picture shown for it' })),
  classification_llm_uuid: Nullable(
    Uuid("One of your LLM connections (null: the team's default, else LEADFLOW_LLM_*)"),
  ),
  classification_llm_config: Nullable(LlmCallConfig),
  classification_prompt: Nullable(
    Type.String({ maxLength: 100_000, description: 'The system prompt: how the agent behaves' }),
  ),
};
const Name = Type.String({ minLength: 1, maxLength: 255, description: 'Name' });
const optional = Object.fromEntries(
  Object.entries(fields).map(([key, schema]) => [key, Type.Optional(schema)]),
) as { [K in keyof typeof fields]: ReturnType<typeof Type.Optional<(typeof fields)[K]>> };

export const AiAgent = Type.Object({
  uuid: Uuid(),
  public_uuid: Nullable(Uuid('Public identifier (stored for compatibility; null)')),
  team_id: Type.Integer({ description: 'Team the agent belongs to' }),
  user_id: Nullable(Type.Integer({ description: 'User who created it' })),
  name: Type.String({ description: 'Name' }),
  ...fields,
  created_at: DateTime(),
  updated_at: DateTime(),
});
export const AiAgentPage = Envelope(AiAgent);
export const AiAgentsQuery = ListQuery(agentSort, Object.keys(agentFilterFields));

export const CreateAiAgentBody = withExample(
  Type.Object({ name: Name, ...optional }, { additionalProperties: false, description: 'name is required' }),
  {
    name: 'Reply classifier',
    description: 'Sorts replies into interested, not now and not interested',
    classification_prompt: 'You classify replies to sales outreach. Answer with one word.',
    classification_llm_config: { temperature: 0 },
  },
);
export const UpdateAiAgentBody = withExample(
  Type.Object(
    { name: Type.Optional(Name), ...optional },
    { additionalProperties: false, description: 'Only the fields sent change; null clears a field' },
  ),
  { classification_prompt: 'You classify replies. Answer interested, later or no.' },
);

type Row = Selectable<AiAgentsTable>;
type Input = Static<typeof UpdateAiAgentBody>;

function columns(input: Input) {
  const has = (key: keyof Input) => Object.hasOwn(input, key);
  if (has('name') && !input.name?.trim()) throw invalidField('name', 'name must not be blank.');
  return {
    ...(has('name') ? { name: input.name!.trim() } : {}),
    ...(has('description') ? { description: input.description ?? null } : {}),
    ...(has('avatar_url') ? { avatar_url: input.avatar_url ?? null } : {}),
    ...(has('classification_llm_uuid')
      ? { classification_llm_uuid: input.classification_llm_uuid ?? null }
      : {}),
    ...(has('classification_llm_config')
      ? {
          classification_llm_config:
            input.classification_llm_config == null ? null : JSON.stringify(input.classification_llm_config),
        }
      : {}),
    ...(has('classification_prompt') ? { classification_prompt: input.classification_prompt ?? null } : {}),
  };
}

export function createAgentsService(deps: { db: Database }) {
  const { db } = deps;
  const select = (teamId: number, uuid: string) =>
    db
      .selectFrom('ai_agents')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('uuid', '=', uuid)
      .executeTakeFirst();

  return {
    async listAgents(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, agentSort);
      const where = compileFilter(agentFilter, params.filter);
      let base = db.selectFrom('ai_agents').where('ai_agents.team_id', '=', teamId);
      if (where) base = base.where(where);
      const [rows, count] = await Promise.all([
        base
          .selectAll()
          .orderBy(orderByClause(page, agentSort))
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return envelope(rows, Number(count.total), page);
    },

    async getAgent(teamId: number, uuid: string): Promise<Row> {
      const row = await select(teamId, uuid);
      if (!row) throw notFound('AI agent');
      return row;
    },

    async createAgent(teamId: number, userId: number, input: Static<typeof CreateAiAgentBody>) {
      await requireLlmConnection(db, teamId, input.classification_llm_uuid, 'classification_llm_uuid');
      const uuid = newId();
      await db
        .insertInto('ai_agents')
        .values({ ...columns(input), name: input.name.trim(), team_id: teamId, uuid, user_id: userId })
        .execute();
      return (await select(teamId, uuid)) as Row;
    },

    async updateAgent(teamId: number, uuid: string, input: Input) {
      await requireLlmConnection(db, teamId, input.classification_llm_uuid, 'classification_llm_uuid');
      const set = columns(input);
      if (Object.keys(set).length > 0) {
        await db
          .updateTable('ai_agents')
          .set({ ...set, updated_at: new Date() })
          .where('team_id', '=', teamId)
          .where('uuid', '=', uuid)
          .execute();
      }
      const row = await select(teamId, uuid);
      if (!row) throw notFound('AI agent');
      return row;
    },

    async deleteAgent(teamId: number, uuid: string) {
      const result = await db
        .deleteFrom('ai_agents')
        .where('team_id', '=', teamId)
        .where('uuid', '=', uuid)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('AI agent');
    },
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
