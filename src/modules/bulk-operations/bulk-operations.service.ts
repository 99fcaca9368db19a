import type { Database } from '../../db/database.js';
import { notFound } from '../../lib/errors.js';
import { selectBulkOperation } from './bulk-operations.repository.js';

export function createBulkOperationsService(deps: { db: Database }) {
  return {
    async getOperation(teamId: number, uuid: string) {
      const operation = await selectBulkOperation(deps.db, teamId, uuid);
      if (!operation) throw notFound('Bulk operation');
      return operation;
    },
  };
}

export type BulkOperationsService = ReturnType<typeof createBulkOperationsService>;
