// The engine's renderer is the shared message renderer of src/modules/templates: the same variables,
// Liquid and spintax as the render endpoint, loaded once per batch, seeded per enrollment step so a
// retry renders the same text. Nodes naming a saved AI template compose through `composeMessage`, the
// code behind POST /flows/api/ai-templates/render, with the team's LLM (its connection, else LEADFLOW_LLM_*), each call logged.

import { AppError } from '../../lib/errors.js';
import { composeMessage } from '../ai-templates/ai-message.js';
import { templateLlms } from '../ai-templates/template-llms.js';
import type { TeamLlms } from '../llm/team-llms.js';
import { renderTemplate, TemplateError } from '../templates/render/render.js';
import { buildScope } from '../templates/render/scope.js';
import { loadContactTemplateData, loadSenderTemplateData } from '../templates/template-data.repository.js';
import type { ActionRenderer, ComposedAction } from './render.js';

export function createTemplateRenderer(deps: { llms: TeamLlms }): ActionRenderer {
  return {
    async prepare(db, teamId, leadUuids, senderUuids, aiTemplateUuids) {
      const [contacts, senders, aiTemplates] = await Promise.all([
        loadContactTemplateData(db, teamId, leadUuids),
        loadSenderTemplateData(db, teamId, senderUuids),
        aiTemplateUuids.length > 0
          ? db
              .selectFrom('ai_templates')
              .selectAll()
              .where('team_id', '=', teamId)
              .where('uuid', 'in', aiTemplateUuids)
              .execute()
          : Promise.resolve([]),
      ]);
      const templates = new Map(aiTemplates.map((t) => [t.uuid.toLowerCase(), t]));
      const scopeOf = (leadUuid: string, senderUuid: string | null) => {
        const contact = contacts.get(leadUuid);
        return contact
          ? buildScope({ ...contact, sender: senderUuid ? (senders.get(senderUuid) ?? null) : null })
          : undefined;
      };
      return {
        render(template, leadUuid, senderUuid, seed) {
          if (template === null || template === undefined || template === '')
            return { text: null, missing: [] };
          const scope = scopeOf(leadUuid, senderUuid);
          if (!scope) return { text: null, missing: [], error: 'The contact no longer exists.' };
          try {
            const result = renderTemplate(template, scope, { seed });
            return { text: result.text, missing: result.missing };
          } catch (error) {
            if (error instanceof TemplateError) return { text: null, missing: [], error: error.message };
            throw error;
          }
        },

        async compose(aiTemplateUuid, leadUuid, senderUuid, seed, flowUuid): Promise<ComposedAction> {
          const template = templates.get(aiTemplateUuid.toLowerCase());
          const failed = (error: string): ComposedAction => ({
            text: null,
            subject: null,
            missing: [],
            error,
          });
          if (!template) return failed(`The AI template ${aiTemplateUuid} no longer exists.`);
          const scope = scopeOf(leadUuid, senderUuid);
          if (!scope) return failed('The contact no longer exists.');
          try {
            const clients = await templateLlms(deps.llms, template, {
              teamId,
              source: 'flow_node',
              flowUuid: flowUuid ?? null,
              leadUuid,
              aiTemplateUuid: template.uuid,
            });
            const composed = await composeMessage(template, scope, { ...clients, seed });
            const base = {
              subject: composed.rendered_subject,
              // Blanks in a prompt do not reach the message; blanks in a body (or fallback) do.
              missing: composed.final_source === 'ai' ? [] : composed.missing_variables,
              source: composed.final_source,
              note: composed.handling_error,
            };
            return composed.final_body === null
              ? { ...base, text: null, error: composed.handling_error ?? 'The AI template gave no text.' }
              : { ...base, text: composed.final_body };
          } catch (error) {
            // A template that no longer parses (saved before a renderer change): skip, do not crash.
            if (error instanceof AppError) return failed(error.message);
            throw error;
          }
        },
      };
    },
  };
}
