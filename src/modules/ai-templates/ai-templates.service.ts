import type { Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { Database } from '../../db/database.js';
import { AppError, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { requireAttachments } from '../attachments/attachments.service.js';
import type { LlmClient } from '../llm/llm-client.js';
import { checkTemplate } from '../templates/render/render.js';
import { buildScope } from '../templates/render/scope.js';
import { loadContactTemplateData, loadSenderTemplateData } from '../templates/template-data.repository.js';
import { TEMPLATE_VARIABLES } from '../templates/template-variables.js';
import { type AiTemplateFields, composeMessage } from './ai-message.js';
import * as repo from './ai-templates.repository.js';
import type {
  AiTemplate,
  CreateAiTemplateBody,
  RenderAiTemplateBody,
  UpdateAiTemplateBody,
} from './ai-templates.schemas.js';
import type { AiTemplatesTable } from './ai-templates.tables.js';

type CreateInput = Static<typeof CreateAiTemplateBody>;
type UpdateInput = Static<typeof UpdateAiTemplateBody>;
type RenderInput = Static<typeof RenderAiTemplateBody>;
export type WireAiTemplate = Static<typeof AiTemplate>;

/** The fields holding template text: each is parsed on save, so a broken template never gets stored. */
export const TEMPLATE_TEXT_FIELDS = [
  'subject',
  'body',
  'fallback_body',
  'prompt',
  'validation_prompt',
] as const;

export function presentAiTemplate(row: repo.AiTemplateRow): WireAiTemplate {
  return { ...row, is_public: row.is_public ? 1 : 0 } as WireAiTemplate;
}

/** 422 naming every template field whose Liquid does not parse, with the parser's line and column. */
export function assertTemplatesParse(
  input: Partial<Record<(typeof TEMPLATE_TEXT_FIELDS)[number], string | null>>,
) {
  const problems: Record<string, string[]> = {};
  for (const field of TEMPLATE_TEXT_FIELDS) {
    const text = input[field];
    if (typeof text !== 'string') continue;
    const { errors } = checkTemplate(text);
    if (errors.length > 0) problems[field] = errors.map((error) => `${field}: ${error}`);
  }
  const fields = Object.keys(problems);
  if (fields.length > 0) {
    throw new AppError('validation_error', Object.values(problems)[0]![0]!, problems);
  }
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** Named columns of a create or update: only keys present in the input. */
function columnsOf(input: UpdateInput): Updateable<AiTemplatesTable> {
  const has = (key: keyof UpdateInput) => Object.hasOwn(input, key);
  const columns: Updateable<AiTemplatesTable> = {};
  if (has('name')) {
    columns.name = input.name!.trim();
    if (!columns.name) throw invalidField('name', 'name must not be blank.');
  }
  if (has('type')) columns.type = input.type!;
  if (has('is_public')) columns.is_public = input.is_public === 1;
  if (has('template_category_uuid')) columns.template_category_uuid = input.template_category_uuid ?? null;
  if (has('subject')) columns.subject = input.subject ?? null;
  if (has('body')) columns.body = input.body ?? null;
  if (has('fallback_body')) columns.fallback_body = input.fallback_body ?? null;
  if (has('attachments')) columns.attachments = json(input.attachments);
  if (has('prompt')) columns.prompt = input.prompt ?? null;
  if (has('llm_uuid')) columns.llm_uuid = input.llm_uuid ?? null;
  if (has('llm_config')) columns.llm_config = json(input.llm_config);
  if (has('enable_validation')) columns.enable_validation = input.enable_validation!;
  if (has('validation_prompt')) columns.validation_prompt = input.validation_prompt ?? null;
  if (has('validation_llm_uuid')) columns.validation_llm_uuid = input.validation_llm_uuid ?? null;
  if (has('validation_llm_config')) columns.validation_llm_config = json(input.validation_llm_config);
  if (has('enable_fallback')) columns.enable_fallback = input.enable_fallback!;
  if (has('settings')) columns.settings = json(input.settings);
  return columns;
}

/** The saved template's fields, with the inline ones of a render request over them. */
function templateFields(saved: repo.AiTemplateRow | undefined, input: RenderInput): AiTemplateFields {
  const pick = <K extends keyof AiTemplateFields & keyof RenderInput>(
    key: K,
    fallback: AiTemplateFields[K],
  ) => (Object.hasOwn(input, key) ? (input[key] ?? null) : (saved?.[key] ?? fallback)) as AiTemplateFields[K];
  return {
    type: input.type ?? saved?.type ?? 'message',
    subject: pick('subject', null),
    body: pick('body', null),
    fallback_body: pick('fallback_body', null),
    prompt: pick('prompt', null),
    llm_config: pick('llm_config', null),
    enable_validation: input.enable_validation ?? saved?.enable_validation ?? false,
    validation_prompt: pick('validation_prompt', null),
    validation_llm_config: pick('validation_llm_config', null),
    enable_fallback: input.enable_fallback ?? saved?.enable_fallback ?? false,
    settings: pick('settings', null),
  };
}

export function createAiTemplatesService(deps: { db: Database; llm: LlmClient }) {
  const { db, llm } = deps;

  async function requireTemplate(reader: repo.Reader, uuid: string) {
    const row = await repo.selectAiTemplate(db, reader, uuid);
    if (!row) throw notFound('AI template');
    return row;
  }

  return {
    /** The variables a template can use: the fixed list and the team's custom fields by name. */
    async templateVariables(reader: repo.Reader) {
      const fields = await db
        .selectFrom('custom_fields')
        .select(['name', 'object'])
        .where('team_id', '=', reader.teamId)
        .orderBy('order')
        .orderBy('name')
        .execute();
      return [
        ...TEMPLATE_VARIABLES.filter((v) => !v.name.includes('<')),
        ...fields.map((f) => ({
          name: f.object === 'company' ? `company.custom_fields.${f.name}` : `custom_fields.${f.name}`,
          group: 'custom_field' as const,
          description: `${f.object === 'company' ? 'Company' : 'Contact'} custom field ${f.name}`,
          example: '',
        })),
      ];
    },

    async listAiTemplates(reader: repo.Reader, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.aiTemplateSort);
      const { rows, total } = await repo.selectAiTemplates(db, reader, params.filter, page);
      return envelope(rows.map(presentAiTemplate), total, page);
    },

    async getAiTemplate(reader: repo.Reader, uuid: string) {
      return presentAiTemplate(await requireTemplate(reader, uuid));
    },

    /** Raw row for the render use case (visibility applies). */
    requireTemplate,

    async createAiTemplate(reader: repo.Reader, input: CreateInput) {
      assertTemplatesParse(input);
      if (input.attachments) await requireAttachments(db, reader.teamId, input.attachments);
      const row = await repo.insertAiTemplate(db, {
        ...columnsOf(input),
        name: input.name.trim(),
        type: input.type ?? 'message',
        is_public: (input.is_public ?? 1) === 1,
        team_id: reader.teamId,
        uuid: newId(),
        user_id: reader.userId,
      });
      return presentAiTemplate(row);
    },

    async updateAiTemplate(reader: repo.Reader, uuid: string, input: UpdateInput) {
      assertTemplatesParse(input);
      if (input.attachments) await requireAttachments(db, reader.teamId, input.attachments);
      const columns = columnsOf(input);
      const row =
        Object.keys(columns).length > 0
          ? await repo.updateAiTemplate(db, reader, uuid, columns)
          : await repo.selectAiTemplate(db, reader, uuid);
      if (!row) throw notFound('AI template');
      return presentAiTemplate(row);
    },

    async deleteAiTemplate(reader: repo.Reader, uuid: string) {
      if (!(await repo.deleteAiTemplate(db, reader, uuid))) throw notFound('AI template');
    },

    /** Renders a saved or inline template for one contact and sender (and runs its AI part). */
    async renderAiTemplate(reader: repo.Reader, input: RenderInput) {
      assertTemplatesParse(input);
      const saved = input.uuid ? await requireTemplate(reader, input.uuid) : undefined;
      const fields = templateFields(saved, input);
      if (!saved && fields.body === null && fields.prompt === null) {
        throw new AppError('validation_error', 'Give a template uuid, or an inline body or prompt.', {
          uuid: ['required when neither body nor prompt is given'],
        });
      }
      const [contacts, senders] = await Promise.all([
        loadContactTemplateData(db, reader.teamId, [input.lead_uuid]),
        loadSenderTemplateData(db, reader.teamId, [input.sender_profile_uuid]),
      ]);
      const contact = contacts.get(input.lead_uuid);
      if (!contact) {
        throw invalidField('lead_uuid', `lead_uuid: no contact of yours has the UUID ${input.lead_uuid}.`);
      }
      const sender = senders.get(input.sender_profile_uuid);
      if (!sender) {
        throw invalidField(
          'sender_profile_uuid',
          `sender_profile_uuid: no sender profile of yours has the UUID ${input.sender_profile_uuid}.`,
        );
      }
      return composeMessage(fields, buildScope({ ...contact, sender }), {
        llm,
        ...(input.seed === undefined ? {} : { seed: input.seed }),
      });
    },
  };
}

export type AiTemplatesService = ReturnType<typeof createAiTemplatesService>;
