import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../../http/auth.js';
import { errorResponse } from '../../../http/openapi.js';
import { FlowParams } from '../flows.schemas.js';
import { PREVIEW_MAX_CONTACTS, PREVIEW_MAX_DAYS, PreviewBody, PreviewResult } from './preview.schemas.js';
import type { FlowPreviewService } from './preview.service.js';

export const flowPreviewRoutes: FastifyPluginAsyncTypebox<{ preview: FlowPreviewService }> = async (
  app,
  { preview },
) => {
  app.post(
    '/flows/api/flows/:flowUuid/preview',
    {
      schema: {
        tags: ['Flows'],
        operationId: 'previewFlow',
        summary: 'Preview what a flow will do',
        description:
          "Runs the flow's active version, or a draft, on the engine's node machine over simulated days: the chosen " +
          'contacts (or a sample of its sources) enter now or at start_at, the senders act within their schedules, ' +
          'limits and warm-up, and contacts accept and reply like the sandbox network (rates adjustable). Nothing is ' +
          `sent, enrolled or written. At most ${PREVIEW_MAX_CONTACTS.toLocaleString('en')} contacts and ` +
          `${PREVIEW_MAX_DAYS} days; a run longer than 20 s answers what it simulated so far (complete: false). ` +
          'Answers per sender and local day the actions against the limits and what waited on them, per node when ' +
          'contacts reach it, the first contacts step by step with their rendered texts, and the totals.',
        params: FlowParams,
        body: PreviewBody,
        response: {
          200: PreviewResult,
          404: errorResponse(404, 'no flow of your team has that uuid'),
        },
      },
    },
    async (request) => preview.preview(authOf(request).teamId, request.params.flowUuid, request.body),
  );
};
