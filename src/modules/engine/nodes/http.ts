// gs_call_api: a templated HTTP call to the team's own endpoint. The call is a Need the batch makes
// (run/http-node.ts); its result is on the task and the contact moves on either way.
import { type Static, Type } from 'typebox';
import { defineNode, type TemplateText } from './define.js';
import { closed, LINEAR, nullable, one, opt, textFields, uuid } from './payload.js';

const payload = closed({
  method: Type.Union(
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => Type.Literal(m)),
    {
      description: 'HTTP method',
    },
  ),
  endpoint: Type.String({ minLength: 1, maxLength: 2048, description: 'URL (Liquid template)' }),
  headers: opt(Type.Record(Type.String(), Type.Unknown(), { description: 'Headers' })),
  query: opt(Type.Record(Type.String(), Type.Unknown(), { description: 'Query parameters' })),
  post: opt(Type.Record(Type.String(), Type.Unknown(), { description: 'JSON body' })),
  timeout_secs: opt(Type.Integer({ minimum: 1, maximum: 300, description: 'Timeout, seconds' })),
  auto_retry_on_errors: opt(Type.Boolean({ description: 'Retry failed calls' })),
  should_remove_empty_values: opt(Type.Boolean({ description: 'Drop empty values from the body' })),
  api_call_account_uuid: opt(nullable(uuid('Stored credentials'))),
});

export type CallApiPayload = Static<typeof payload>;

/** The endpoint and every string value of the headers, query and body are rendered. */
function callApiTexts(p: CallApiPayload): TemplateText[] {
  const texts = textFields('endpoint')(p);
  for (const map of ['headers', 'query', 'post'] as const) {
    for (const [key, value] of Object.entries(p[map] ?? {})) {
      if (typeof value === 'string') texts.push({ path: `payload.${map}.${key}`, text: value });
    }
  }
  return texts;
}

const CALL_API = defineNode({
  types: { gs_call_api: 'Calls an HTTP API' },
  category: 'action',
  branches: LINEAR,
  needs: ['http'],
  payload,
  references: one('api_call_account', 'api_call_account_uuid'),
  texts: callApiTexts,
  run(work, node, ctx) {
    const result = ctx.httpResults.get(`${work.fl.uuid}:${node.id}`);
    if (!result) return { type: 'need', need: { kind: 'http', node } };
    return { type: 'advance', branch: 1, outcome: result };
  },
});

export const HTTP_NODES = [CALL_API];
