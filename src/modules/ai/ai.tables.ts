// Owner: ai writes ai_agents.
import type { CreatedAt, NullableJson, UpdatedAt } from '../../db/column-types.js';
import type { LlmConfig } from '../ai-templates/ai-templates.tables.js';

/** An AI agent (`/ai/api/agents`, `/flows/api/ai-agents`): a named system prompt on an LLM connection. */
export interface AiAgentsTable {
  team_id: number;
  uuid: string;
  public_uuid: string | null;
  user_id: number | null;
  name: string;
  description: string | null;
  avatar_url: string | null;
  classification_llm_uuid: string | null;
  classification_llm_config: NullableJson<LlmConfig>;
  classification_prompt: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
