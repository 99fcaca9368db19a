// Rules of task request bodies that span fields, as JSON Schema (stated in the OpenAPI document).

/** Task types whose text is the message to send (tasks.service.ts). */
export const NEEDS_TEXT = ['linkedin_send_message', 'linkedin_send_inmail'];

/** A to-do of another type, or one with its text (text, or payload.template as some clients send it). */
export const TEXT_RULE: Array<{ required: string[]; properties?: Record<string, unknown> }> = [
  { required: ['type'], properties: { type: { not: { enum: NEEDS_TEXT } } } },
  { required: ['text'], properties: { text: { pattern: '\\S' } } },
  {
    required: ['payload'],
    properties: {
      payload: { anyOf: [{ required: ['template'], properties: { template: { pattern: '\\S' } } }] },
    },
  },
];

/** The rule of every mass move: uuids and/or a filter with at least one key (tasks.mass-moves.ts). */
export const WHICH_TASKS = {
  anyOf: [
    { required: ['uuids'] },
    { required: ['filter'], properties: { filter: { not: { type: 'null' }, minProperties: 1 } } },
  ],
  'x-message': 'or a non-empty filter is required: say which tasks',
  'x-fields': ['uuids'],
};
