import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { UuidParams } from '../../http/schemas.js';
import { BulkOperation } from './bulk-operations.schemas.js';
import type { BulkOperationsService } from './bulk-operations.service.js';

export const bulkOperationsRoutes: FastifyPluginAsyncTypebox<{
  bulkOperations: BulkOperationsService;
}> = async (app, { bulkOperations }) => {
  app.get(
    '/leads/api/bulk-operations/:uuid',
    {
      schema: {
        tags: ['Bulk operations'],
        operationId: 'getBulkOperation',
        summary: 'Get a bulk operation',
        description:
          'State of a mass action that runs in the background (over more records than the synchronous ' +
          'limit): status, and the number of records changed so far.',
        params: UuidParams,
        response: { 200: BulkOperation },
      },
    },
    async (request) => bulkOperations.getOperation(authOf(request).teamId, request.params.uuid),
  );
};
