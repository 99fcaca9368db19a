import { Type } from 'typebox';
import { atLeastOne, DateTime, Envelope, ListQuery, Nullable, Uuid } from '../../http/schemas.js';
import { RENDER_LIMITS } from '../templates/render/render.js';
import { aiTemplateFilterFields, aiTemplateSort } from './ai-templates.repository.js';

export const AI_TEMPLATE_TYPES = ['message', 'connection_note', 'email', 'post_comment'] as const;

const TYPE_DESCRIPTION =
  'What the template writes: message (LinkedIn message), connection_note (LinkedIn invitation note, ' +
  'at most 300 characters), email (subject and body), post_comment (LinkedIn comment)';
const TypeField = Type.Enum([...AI_TEMPLATE_TYPES], { description: TYPE_DESCRIPTION });

const IS_PUBLIC_DESCRIPTION = '1: the whole team sees and uses the template; 0: only you do';
const IsPublic = Type.Union([Type.Literal(0), Type.Literal(1)], { description: IS_PUBLIC_DESCRIPTION });

const templateText = (what: string) =>
  Type.String({
    maxLength: RENDER_LIMITS.sourceChars,
    description:
      `${what}: text with {{variables}}, Liquid conditions and filters and {a|b} spintax (variables: README, ` +
      '"Message templates"). A syntax error is a 422 naming the field.',
  });

const LlmConfigSchema = Type.Object(
  {
    model: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Model name; default LEADFLOW_LLM_MODEL' }),
    ),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2, description: 'Sampling temperature' })),
    max_tokens: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 32_000, description: 'Longest answer, in tokens' }),
    ),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Nucleus sampling' })),
  },
  {
    additionalProperties: false,
    description: 'Settings of the LLM call (OpenAI-compatible chat completions)',
    examples: [{ model: 'gpt-4o-mini', temperature: 0.7 }],
  },
);

const SettingsSchema = Type.Object(
  {
    max_length: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000,
        description:
          'Longest acceptable AI-written text in characters (default: 300 for connection_note, 8,000 for ' +
          'message, 1,250 for post_comment, none for email); a longer answer is invalid',
      }),
    ),
  },
  { additionalProperties: false, description: 'Template options' },
);

const Attachments = Type.Array(
  Type.Object({ uuid: Uuid('An attachment') }, { additionalProperties: false }),
  {
    maxItems: 20,
    description: 'Attachments sent with the message',
  },
);

export const AiTemplate = Type.Object({
  uuid: Uuid('Referenced as template_uuid by flow nodes'),
  team_id: Type.Integer({ description: 'Team the template belongs to' }),
  user_id: Nullable(Type.Integer({ description: 'User who created it' })),
  template_category_uuid: Nullable(Uuid('Category (stored for compatibility)')),
  name: Type.String({ description: 'Name' }),
  type: TypeField,
  is_public: IsPublic,
  subject: Nullable(Type.String({ description: 'E-mail subject template' })),
  body: Nullable(Type.String({ description: 'Message template' })),
  fallback_body: Nullable(
    Type.String({ description: 'Template sent instead of the AI text when the LLM fails (enable_fallback)' }),
  ),
  attachments: Nullable(Attachments),
  prompt: Nullable(Type.String({ description: 'Instructions to the LLM (a template too)' })),
  llm_uuid: Nullable(Uuid('LLM integration of the hosted service (stored; Leadflow uses LEADFLOW_LLM_*)')),
  llm_config: Nullable(LlmConfigSchema),
  enable_validation: Type.Boolean({ description: 'Check the LLM\u2019s answer with validation_prompt' }),
  validation_prompt: Nullable(Type.String({ description: 'Instructions of the validation call' })),
  validation_llm_uuid: Nullable(Uuid('LLM integration of the validation call (stored)')),
  validation_llm_config: Nullable(LlmConfigSchema),
  enable_fallback: Type.Boolean({
    description: 'When the LLM fails, times out or answers something invalid, send fallback_body (or body)',
  }),
  settings: Nullable(SettingsSchema),
  created_at: DateTime(),
  updated_at: DateTime(),
});

export const AiTemplatePage = Envelope(AiTemplate);
export const AiTemplatesQuery = ListQuery(aiTemplateSort, Object.keys(aiTemplateFilterFields));

const optionalFields = {
  template_category_uuid: Type.Optional(Nullable(Uuid('Category (stored for compatibility)'))),
  subject: Type.Optional(Nullable(templateText('E-mail subject'))),
  body: Type.Optional(Nullable(templateText('Message'))),
  fallback_body: Type.Optional(Nullable(templateText('Fallback message, sent when the AI part fails'))),
  attachments: Type.Optional(Nullable(Attachments)),
  prompt: Type.Optional(Nullable(templateText('Instructions to the LLM'))),
  llm_uuid: Type.Optional(Nullable(Uuid('Stored for compatibility; the LLM is LEADFLOW_LLM_*'))),
  llm_config: Type.Optional(Nullable(LlmConfigSchema)),
  enable_validation: Type.Optional(
    Type.Boolean({ description: 'Check the LLM\u2019s answer with validation_prompt (default false)' }),
  ),
  validation_prompt: Type.Optional(Nullable(templateText('Instructions of the validation call'))),
  validation_llm_uuid: Type.Optional(Nullable(Uuid('Stored for compatibility'))),
  validation_llm_config: Type.Optional(Nullable(LlmConfigSchema)),
  enable_fallback: Type.Optional(
    Type.Boolean({
      description: 'Fall back to fallback_body (or body) when the AI part fails (default false)',
    }),
  ),
  settings: Type.Optional(Nullable(SettingsSchema)),
};

const Name = Type.String({ minLength: 1, maxLength: 255, description: 'Name' });

export const CreateAiTemplateBody = Type.Object(
  {
    name: Name,
    type: Type.Optional(
      Type.Enum([...AI_TEMPLATE_TYPES], { description: `${TYPE_DESCRIPTION} (default message)` }),
    ),
    is_public: Type.Optional(
      Type.Union([Type.Literal(0), Type.Literal(1)], { description: `${IS_PUBLIC_DESCRIPTION} (default 1)` }),
    ),
    ...optionalFields,
  },
  {
    additionalProperties: false,
    description:
      'name is required; type defaults to message and is_public to 1 (the hosted service requires both, ' +
      'its MCP server sends neither)',
    examples: [
      {
        name: 'Cold outreach \u2014 CTO',
        type: 'message',
        is_public: 1,
        body: '{Hi|Hello} {{first_name | default: "there"}}, I saw {{company}} is hiring engineers\u2026',
        prompt: 'Write a two-sentence opener for {{first_name}}, {{position}} at {{company}}.',
        enable_fallback: true,
      },
    ],
  },
);

export const UpdateAiTemplateBody = Type.Object(
  {
    name: Type.Optional(Name),
    type: Type.Optional(TypeField),
    is_public: Type.Optional(IsPublic),
    ...optionalFields,
  },
  {
    additionalProperties: false,
    description: 'Only the fields sent change; null clears a field',
    examples: [
      { name: 'Cold outreach \u2014 CTO (v2)', enable_validation: true, validation_prompt: 'Is it polite?' },
    ],
  },
);

export const RenderAiTemplateBody = Type.Object(
  {
    uuid: Type.Optional(Uuid('A saved template; without it, the inline fields are the template')),
    lead_uuid: Uuid('The contact whose variables fill the template'),
    sender_profile_uuid: Uuid('The sender whose variables fill the template'),
    seed: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Fixes the spintax picks: the same seed renders the same text (default: random picks)',
      }),
    ),
    type: Type.Optional(TypeField),
    subject: optionalFields.subject,
    body: optionalFields.body,
    fallback_body: optionalFields.fallback_body,
    prompt: optionalFields.prompt,
    llm_uuid: optionalFields.llm_uuid,
    llm_config: optionalFields.llm_config,
    enable_validation: optionalFields.enable_validation,
    validation_prompt: optionalFields.validation_prompt,
    validation_llm_uuid: optionalFields.validation_llm_uuid,
    validation_llm_config: optionalFields.validation_llm_config,
    enable_fallback: optionalFields.enable_fallback,
    settings: optionalFields.settings,
  },
  {
    additionalProperties: false,
    ...atLeastOne([['uuid'], ['body'], ['prompt']]),
    'x-message': 'is required when neither body nor prompt is given (a saved template, or an inline one)',
    'x-fields': ['uuid'],
    description:
      'A saved template (uuid) or an inline one (body and/or prompt; type defaults to message). Inline ' +
      'fields sent with a uuid override the saved ones, to preview an edit.',
    examples: [
      {
        lead_uuid: '0190f000-0000-7000-8000-000000000001',
        sender_profile_uuid: '0190f000-0000-7000-8000-000000000002',
        body: '{Hi|Hello} {{first_name | default: "there"}}, congrats on the new role at {{company}}!',
      },
    ],
  },
);

const ValidationStepSchema = Type.Object({
  attempt: Type.Integer({ description: 'Generation attempt (1 or 2)' }),
  ai_generated_body: Type.String({ description: 'What the LLM wrote' }),
  valid: Type.Boolean({ description: 'Whether it passed' }),
  reason: Nullable(Type.String({ description: 'Why it was refused' })),
  checked_by: Type.Enum(['rules', 'llm'], {
    description: 'rules: length and placeholder checks; llm: the validation prompt',
  }),
});

export const RenderAnswer = Type.Object({
  llm_instructions: Nullable(Type.String({ description: 'The rendered prompt sent to the LLM' })),
  rendered_body: Nullable(Type.String({ description: 'The rendered body' })),
  ai_generated_body: Nullable(Type.String({ description: 'What the LLM wrote (last attempt)' })),
  fallback_body: Nullable(
    Type.String({
      description: 'The rendered fallback_body (else body): what is sent when the AI part fails',
    }),
  ),
  handling_error: Nullable(
    Type.String({ description: 'Why the AI part produced no message, if it did not' }),
  ),
  validation_history: Type.Array(ValidationStepSchema, { description: 'Checks of each AI answer' }),
  rendered_subject: Nullable(Type.String({ description: 'The rendered subject (e-mail)' })),
  final_body: Nullable(Type.String({ description: 'The text that would be sent (null: nothing would be)' })),
  final_source: Nullable(
    Type.Enum(['template', 'ai', 'fallback'], { description: 'Where final_body comes from' }),
  ),
  missing_variables: Type.Array(Type.String(), {
    description: 'Variables that printed blank (an automation applies fallback_send to them)',
  }),
  unknown_variables: Type.Array(Type.String(), { description: 'Names that are not variables (typos?)' }),
});

export const TemplateVariableList = Type.Array(
  Type.Object({
    name: Type.String({
      description: 'How a template names it: first_name, company.domain, custom_fields.Industry',
    }),
    group: Type.Enum(['contact', 'company', 'custom_field', 'sender'], { description: 'Whose value it is' }),
    description: Type.String({ description: 'What it holds' }),
    example: Type.String({ description: 'An example value' }),
  }),
  { description: "Every variable a message template can use, the team's custom fields by name included" },
);
