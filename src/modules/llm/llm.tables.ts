// Owner: ai writes llms; llm writes llm_logs.
import type { CreatedAt, Defaulted, NullableJson, UpdatedAt } from '../../db/column-types.js';
import type { ChatMessage } from './llm-client.js';

export const LLM_PROVIDERS = [
  'openai',
  'google',
  'anthropic',
  'perplexity',
  'deepseek',
  'xai',
  'meta',
  'openai_compatible',
] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** A team's LLM connection (`/ai/api/llms`): an OpenAI-compatible endpoint, its model and sealed key. */
export interface LlmsTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  name: string;
  provider: LlmProvider;
  owner: Defaulted<'customer' | 'gs'>;
  base_url: string;
  model: string;
  /** The API key sealed with the installation's secret box; never leaves the server. */
  api_key_sealed: string | null;
  /** The key's last four characters, to tell keys apart. */
  api_key_last4: string | null;
  is_default: Defaulted<boolean>;
  last_test_at: Date | null;
  last_test_status: 'succeeded' | 'failed' | null;
  last_test_error: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export const LLM_LOG_SOURCES = ['template_render', 'flow_node', 'ask', 'generate', 'test'] as const;
export type LlmLogSource = (typeof LLM_LOG_SOURCES)[number];

/** One LLM call Leadflow made, kept like events (LEADFLOW_EVENT_RETENTION_DAYS). */
export interface LlmLogsTable {
  team_id: number;
  uuid: string;
  /** The team connection used; null: the server-wide LEADFLOW_LLM_* endpoint. */
  llm_uuid: string | null;
  source: LlmLogSource;
  purpose: 'generation' | 'validation';
  model: string;
  status: 'succeeded' | 'failed';
  error: string | null;
  tokens_in: number;
  tokens_out: number;
  latency_ms: number;
  messages: NullableJson<ChatMessage[]>;
  answer: string | null;
  flow_uuid: string | null;
  lead_uuid: string | null;
  ai_template_uuid: string | null;
  created_at: CreatedAt;
}
