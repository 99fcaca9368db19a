import { Type } from 'typebox';
import {
  DateOrDateTime,
  DateTime,
  Envelope,
  ListQuery,
  Nullable,
  Uuid,
  withExample,
} from '../../http/schemas.js';
import { LLM_PROVIDERS } from '../llm/llm.tables.js';
import { llmFilterFields, llmSort } from './llms.repository.js';

const Provider = Type.Enum([...LLM_PROVIDERS], {
  description:
    'openai, google, anthropic, perplexity, deepseek, xai, meta (each through its OpenAI-compatible ' +
    'endpoint), or openai_compatible (any other endpoint: base_url and model required)',
});
const Owner = Type.Enum(['customer', 'gs'], {
  description: 'Stored for compatibility with the hosted service (default customer)',
});
const BaseUrl = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2000,
  description:
    'OpenAI-compatible endpoint (the part before /chat/completions, e.g. https://api.openai.com/v1); ' +
    "default: the provider's. Private and loopback addresses are refused (LEADFLOW_OUTBOUND_*)",
});
const Model = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "Model used when a template or request names none; default: the provider's small model",
});
const ApiToken = Type.String({
  minLength: 1,
  maxLength: 4000,
  description: 'The API key (sent as a Bearer token). Stored encrypted, never shown again',
});
const Name = Type.String({ minLength: 1, maxLength: 255, description: 'Name' });
const IsDefault = Type.Boolean({
  description:
    "The team's default connection: used by every AI feature that names none (the team's first " +
    'connection becomes the default; setting one unsets the other)',
});

export const Llm = Type.Object({
  uuid: Uuid('Named by llm_uuid in AI templates and agents'),
  team_id: Type.Integer({ description: 'Team the connection belongs to' }),
  user_id: Nullable(Type.Integer({ description: 'User who created it' })),
  name: Type.String({ description: 'Name' }),
  provider: Provider,
  owner: Owner,
  base_url: Type.String({ description: 'OpenAI-compatible endpoint' }),
  model: Type.String({ description: 'Default model' }),
  has_api_key: Type.Boolean({ description: 'Whether an API key is stored (the key itself is never shown)' }),
  api_key_last4: Nullable(Type.String({ description: 'The last four characters of the key' })),
  is_default: Type.Boolean({ description: "Whether this is the team's default connection" }),
  last_test_at: Nullable(DateTime('When the last test call ran')),
  last_test_status: Nullable(Type.Enum(['succeeded', 'failed'], { description: 'Its outcome' })),
  last_test_error: Nullable(Type.String({ description: 'Why it failed' })),
  created_at: DateTime(),
  updated_at: DateTime(),
});
export const LlmPage = Envelope(Llm);
export const LlmsQuery = ListQuery(llmSort, Object.keys(llmFilterFields));

export const CreateLlmBody = withExample(
  Type.Object(
    {
      name: Name,
      provider: Provider,
      provider_api_token: Type.Optional(ApiToken),
      base_url: Type.Optional(BaseUrl),
      model: Type.Optional(Model),
      owner: Type.Optional(Owner),
      is_default: Type.Optional(IsDefault),
    },
    { additionalProperties: false, description: 'name and provider are required' },
  ),
  { name: 'OpenAI', provider: 'openai', provider_api_token: 'sk-...', model: 'gpt-4o-mini' },
);

export const UpdateLlmBody = withExample(
  Type.Object(
    {
      name: Type.Optional(Name),
      provider: Type.Optional(Provider),
      provider_api_token: Type.Optional(Nullable(ApiToken)),
      base_url: Type.Optional(BaseUrl),
      model: Type.Optional(Model),
      owner: Type.Optional(Owner),
      is_default: Type.Optional(IsDefault),
    },
    {
      additionalProperties: false,
      description: 'Only the fields sent change; provider_api_token null removes the key',
    },
  ),
  { name: 'OpenAI (team)', provider_api_token: 'sk-new...' },
);

const LlmConfig = Type.Object(
  {
    model: Type.Optional(Model),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2, description: 'Sampling temperature' })),
    max_tokens: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 32_000, description: 'Longest answer, in tokens' }),
    ),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Nucleus sampling' })),
  },
  { additionalProperties: false, description: 'Settings of the call' },
);

export { LlmConfig as LlmCallConfig };

const Message = Type.Object(
  {
    role: Type.Enum(['system', 'user', 'assistant'], { description: 'Who says it' }),
    content: Type.String({ minLength: 1, maxLength: 100_000, description: 'The text' }),
  },
  { additionalProperties: false },
);

export const GenerateBody = withExample(
  Type.Object(
    {
      job_type: Type.Optional(
        Type.Enum(['ai_variable', 'ai_template', 'ai_agent'], {
          description: 'What the text is for (recorded by the hosted service; accepted and not used)',
        }),
      ),
      messages: Type.Array(Message, { minItems: 1, maxItems: 100, description: 'The chat so far' }),
      config: Type.Optional(LlmConfig),
    },
    { additionalProperties: false },
  ),
  {
    job_type: 'ai_template',
    messages: [{ role: 'user', content: 'Write a one-line greeting for a CTO.' }],
    config: { temperature: 0.7 },
  },
);

export const LlmAnswer = Type.Object({
  text: Type.String({ description: 'What the model answered' }),
  model: Type.String({ description: 'The model that answered' }),
  tokens_in: Type.Integer({ description: 'Prompt tokens the endpoint reported' }),
  tokens_out: Type.Integer({ description: 'Answer tokens the endpoint reported' }),
  latency_ms: Type.Integer({ description: 'How long the call took' }),
  llm_uuid: Nullable(Uuid('The connection used (null: the server-wide LEADFLOW_LLM_* endpoint)')),
});

export const LlmTestAnswer = Type.Object({
  status: Type.Enum(['succeeded', 'failed'], { description: 'Whether the endpoint answered' }),
  error: Nullable(Type.String({ description: 'Why not' })),
  model: Type.String({ description: 'The model asked' }),
  latency_ms: Type.Integer({ description: 'How long the call took' }),
});

export const LLM_METRICS = ['calls', 'succeeded', 'failed', 'tokens_in', 'tokens_out', 'this_month_calls'];

export const LlmMetricsBody = withExample(
  Type.Object(
    {
      uuids: Type.Array(Uuid(), {
        minItems: 1,
        maxItems: 1000,
        description: 'Connections to count calls of',
      }),
      period_from: Type.Optional(DateOrDateTime('Calls from then on (default: no start)')),
      period_to: Type.Optional(DateOrDateTime('Calls until then (a bare date includes the day)')),
    },
    { additionalProperties: false },
  ),
  { uuids: ['0190f000-0000-7000-8000-000000000001'], period_from: '2026-03-01' },
);

export const LlmMetrics = Type.Record(
  Type.String({ format: 'uuid' }),
  Type.Object({
    calls: Type.Integer({ description: 'Calls in the period' }),
    succeeded: Type.Integer({ description: 'Calls that got an answer' }),
    failed: Type.Integer({ description: 'Calls that did not' }),
    tokens_in: Type.Integer({ description: 'Prompt tokens reported' }),
    tokens_out: Type.Integer({ description: 'Answer tokens reported' }),
    this_month_calls: Type.Integer({ description: 'Calls this calendar month (UTC), whatever the period' }),
  }),
  {
    description:
      "Per connection UUID, its calls of the period from the LLM log (other teams' or unknown UUIDs are left out)",
  },
);
