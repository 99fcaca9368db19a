// The engine's renderer is the shared message renderer of src/modules/templates: the same variables,
// Liquid and spintax as the render endpoint, loaded once per batch, seeded per enrollment step so a
// retry renders the same text.

import { renderTemplate, TemplateError } from '../templates/render/render.js';
import { buildScope } from '../templates/render/scope.js';
import { loadContactTemplateData, loadSenderTemplateData } from '../templates/template-data.repository.js';
import type { ActionRenderer } from './render.js';

export const templateRenderer: ActionRenderer = {
  async prepare(db, teamId, leadUuids, senderUuids) {
    const [contacts, senders] = await Promise.all([
      loadContactTemplateData(db, teamId, leadUuids),
      loadSenderTemplateData(db, teamId, senderUuids),
    ]);
    return {
      render(template, leadUuid, senderUuid, seed) {
        if (template === null || template === undefined || template === '')
          return { text: null, missing: [] };
        const contact = contacts.get(leadUuid);
        if (!contact) return { text: null, missing: [], error: 'The contact no longer exists.' };
        const scope = buildScope({
          ...contact,
          sender: senderUuid ? (senders.get(senderUuid) ?? null) : null,
        });
        try {
          const result = renderTemplate(template, scope, { seed });
          return { text: result.text, missing: result.missing };
        } catch (error) {
          if (error instanceof TemplateError) return { text: null, missing: [], error: error.message };
          throw error;
        }
      },
    };
  },
};
