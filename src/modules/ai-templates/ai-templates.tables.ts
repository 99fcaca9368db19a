// Owner: ai-templates writes ai_templates.
import type { CreatedAt, Defaulted, NullableJson, UpdatedAt } from '../../db/column-types.js';

export type AiTemplateType = 'message' | 'connection_note' | 'email' | 'post_comment';

/** Model settings of a template's LLM call (all optional; the server's defaults fill the rest). */
export type LlmConfig = { model?: string; temperature?: number; max_tokens?: number; top_p?: number };

/** Options of ours on a template (see the schema descriptions). */
export type AiTemplateSettings = { max_length?: number };

export interface AiTemplatesTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  template_category_uuid: string | null;
  name: string;
  type: AiTemplateType;
  is_public: Defaulted<boolean>;
  subject: string | null;
  body: string | null;
  fallback_body: string | null;
  attachments: NullableJson<{ uuid: string }[]>;
  prompt: string | null;
  llm_uuid: string | null;
  llm_config: NullableJson<LlmConfig>;
  enable_validation: Defaulted<boolean>;
  validation_prompt: string | null;
  validation_llm_uuid: string | null;
  validation_llm_config: NullableJson<LlmConfig>;
  enable_fallback: Defaulted<boolean>;
  settings: NullableJson<AiTemplateSettings>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
