// Records of the team that node payloads and contact sources name (tags, lists, stages, senders,
// flows...). Each kind has a checker that answers which of a set of uuids exist in the team - one query
// per kind for a whole version. Kinds whose module does not exist yet (CRM integrations, API-call
// accounts) have no checker: their references are stored unchecked until that module passes its
// checker to createFlowsModule (see deps.ts, where the AI templates module passes its own).
import { sql } from 'kysely';
import type { Executor } from '../../../db/database.js';
import { isUuid } from '../../../lib/ids.js';
import { selectAttachmentsByUuids } from '../../attachments/attachments.repository.js';
import type { ReferenceKind } from '../../engine/index.js';
import { selectExistingTagUuids } from '../../tags/tags.repository.js';

/** Answers which of `uuids` (lower-case, valid) name a record of the team. */
export type ReferenceChecker = (db: Executor, teamId: number, uuids: string[]) => Promise<Set<string>>;

export type ReferenceCheckers = Partial<Record<ReferenceKind, ReferenceChecker>>;

/** What each kind is called in messages. */
export const REFERENCE_NAMES: Record<ReferenceKind, string> = {
  tag: 'tag',
  list: 'list',
  pipeline_stage: 'contact pipeline stage',
  sender_profile: 'sender profile',
  flow: 'flow',
  webhook: 'webhook',
  ai_template: 'AI template',
  attachment: 'attachment',
  integration: 'CRM integration',
  api_call_account: 'API-call account',
};

async function existing(
  db: Executor,
  table: 'lists' | 'pipeline_stages' | 'sender_profiles' | 'flows' | 'webhooks',
  teamId: number,
  uuids: string[],
  extra = sql``,
): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const { rows } = await sql<{ uuid: string }>`
    select uuid from ${sql.table(table)}
    where team_id = ${teamId} and uuid = any(${uuids}::uuid[]) ${extra}
  `.execute(db);
  return new Set(rows.map((row) => row.uuid));
}

/** Sender profiles of the team among `uuids` (read directly: the senders module owns the table). */
export const selectExistingSenderUuids: ReferenceChecker = (db, teamId, uuids) =>
  existing(db, 'sender_profiles', teamId, uuids);

/** The checkers of the kinds whose tables exist today. */
export const defaultReferenceCheckers: ReferenceCheckers = {
  tag: selectExistingTagUuids,
  list: (db, teamId, uuids) => existing(db, 'lists', teamId, uuids),
  pipeline_stage: (db, teamId, uuids) =>
    existing(db, 'pipeline_stages', teamId, uuids, sql`and object = 'lead'`),
  sender_profile: selectExistingSenderUuids,
  flow: (db, teamId, uuids) => existing(db, 'flows', teamId, uuids),
  webhook: (db, teamId, uuids) => existing(db, 'webhooks', teamId, uuids),
  attachment: async (db, teamId, uuids) =>
    new Set((await selectAttachmentsByUuids(db, teamId, uuids)).map((attachment) => attachment.uuid)),
};

export type ReferenceUse = { kind: ReferenceKind; uuid: string; path: string; label: string };

/**
 * Checks every reference with its kind's checker (one query per kind) and returns a problem per
 * reference that names nothing of the team. References of kinds without a checker pass.
 */
export async function missingReferences(
  db: Executor,
  teamId: number,
  uses: ReferenceUse[],
  checkers: ReferenceCheckers,
): Promise<Array<{ path: string; message: string }>> {
  const byKind = new Map<ReferenceKind, ReferenceUse[]>();
  for (const use of uses) {
    if (!checkers[use.kind] || !isUuid(use.uuid)) continue;
    byKind.set(use.kind, [...(byKind.get(use.kind) ?? []), use]);
  }
  const problems: Array<{ path: string; message: string }> = [];
  await Promise.all(
    [...byKind].map(async ([kind, list]) => {
      const found = await checkers[kind]!(db, teamId, [
        ...new Set(list.map((use) => use.uuid.toLowerCase())),
      ]);
      for (const use of list) {
        if (found.has(use.uuid.toLowerCase())) continue;
        problems.push({
          path: use.path,
          message: `${use.label}: no ${REFERENCE_NAMES[kind]} of yours has the UUID ${use.uuid}.`,
        });
      }
    }),
  );
  return problems;
}
