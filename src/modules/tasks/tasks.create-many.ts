// To-dos for a selection of contacts: POST /flows/api/tasks with `filter` ({all, ids, excludeIds} plus
// contact filter keys - the selection the hosted UI sends) makes one manual task per selected contact,
// in one statement. Up to the synchronous limit it runs in the request; above it a bulk operation makes
// them in batches of contacts. A batch that runs twice makes no second task: each task records the
// selection that made it (`payload.selection_uuid`: the bulk operation, or a
// request's own id), and a contact that already has one is passed over.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database, Executor } from '../../db/database.js';
import { applyInBatches, type BulkOperationRunner } from '../bulk-operations/bulk-operations.jobs.js';
import { loadLeadFilterSpec } from '../leads/leads.filter.js';
import { massActionWhere } from '../leads/leads.mass-actions.js';

export const CREATE_TASKS_OPERATION = 'task_create';

/** What every task of the selection gets (the sender, type, texts and times were checked already). */
export type ManyTasksSpec = {
  sender_profile_uuid: string;
  type: string;
  template: string | null;
  note: string | null;
  timezone: string;
  /** ISO time, or null for now. */
  schedule_at: string | null;
  assigned_to: number;
  user_id: number;
};

/** The selected contacts (blacklisted ones left out, as for every mass action), as a condition on `l`. */
export async function selectionWhere(
  db: Executor,
  teamId: number,
  selection: Record<string, unknown>,
  leadUuid: string | undefined,
): Promise<RawBuilder<SqlBool>> {
  const spec = await loadLeadFilterSpec(db, teamId);
  const where = massActionWhere(spec, selection);
  // lead_uuid sent beside the selection (the MCP server sends both) is one more selected contact.
  return leadUuid === undefined
    ? where
    : sql<SqlBool>`(${where} or (l.uuid = ${leadUuid}::uuid and not l.is_blacklisted))`;
}

/**
 * Inserts one task per contact of `where` (alias `l`) that has none of `operation` yet; answers the
 * tasks made. Run it in a transaction.
 */
export async function insertTasksForLeads(
  trx: Executor,
  teamId: number,
  where: RawBuilder<SqlBool>,
  spec: ManyTasksSpec,
  operation: string,
): Promise<string[]> {
  const payload = JSON.stringify({ template: spec.template, note: spec.note, selection_uuid: operation });
  const { rows } = await sql<{ uuid: string }>`
    insert into tasks (team_id, uuid, lead_uuid, company_uuid, sender_profile_uuid, type, automation, status,
      payload, note, timezone, schedule_at, assigned_to, user_id)
    select ${teamId}, leadflow_uuid_v7(), l.uuid, l.company_uuid, ${spec.sender_profile_uuid}, ${spec.type},
      'manual', 'in_progress', ${payload}::jsonb, ${spec.note}, ${spec.timezone},
      coalesce(${spec.schedule_at}::timestamptz, now()), ${spec.assigned_to}, ${spec.user_id}
    from leads l
    where l.team_id = ${teamId} and ${where}
      and not exists (
        select 1 from tasks t
        where t.team_id = ${teamId} and t.lead_uuid = l.uuid and t.automation = 'manual'
          and t.payload->>'selection_uuid' = ${operation}
      )
    order by l.uuid
    returning uuid
  `.execute(trx);
  return rows.map((row) => row.uuid);
}

/** Runs stored task creations in batches of contacts. */
export function createTasksRunner(deps: {
  db: Database;
  config: Pick<Config, 'massActionSyncLimit'>;
}): BulkOperationRunner {
  const batchSize = Math.min(5000, deps.config.massActionSyncLimit);
  return {
    types: [CREATE_TASKS_OPERATION],
    async run(operation, progress) {
      const teamId = operation.team_id;
      const stored = (operation.filter ?? {}) as { selection?: Record<string, unknown>; lead_uuid?: string };
      const where = await selectionWhere(deps.db, teamId, stored.selection ?? {}, stored.lead_uuid);
      const spec = operation.payload as unknown as ManyTasksSpec;
      await applyInBatches(
        deps.db,
        { table: 'leads', alias: 'l', teamId, where },
        batchSize,
        async (trx, batch) => (await insertTasksForLeads(trx, teamId, batch, spec, operation.uuid)).length,
        progress,
      );
    },
  };
}
