// Resolves what clients refer to by name or uuid - tags, lists, stages - for a whole request at once
// (one query per kind, never one per contact), with 422s that name the offending field.
import type { Executor } from '../../db/database.js';
import { invalidField } from '../../lib/errors.js';
import { isUuid } from '../../lib/ids.js';
import { selectExistingTagUuids, upsertTagsByName } from '../tags/tags.repository.js';
import { leadStageExists, listExists } from './leads.repository.js';

export type TagInput = { path: string; values: string[] };

/**
 * Tag uuids for each input list. Values shaped like a UUID must be tags of the team; any other value
 * is a tag name, created when the team has no tag of that name.
 */
export async function resolveTagInputs(
  db: Executor,
  teamId: number,
  inputs: TagInput[],
): Promise<string[][]> {
  const names: string[] = [];
  const uuids: string[] = [];
  for (const { values } of inputs) {
    for (const value of values) {
      if (isUuid(value)) uuids.push(value.toLowerCase());
      else names.push(value);
    }
  }
  const [byName, existing] = await Promise.all([
    names.length > 0 ? upsertTagsByName(db, teamId, names) : new Map<string, string>(),
    uuids.length > 0 ? selectExistingTagUuids(db, teamId, [...new Set(uuids)]) : new Set<string>(),
  ]);
  return inputs.map(({ path, values }) => {
    const resolved = values.map((value, index) => {
      if (isUuid(value)) {
        const uuid = value.toLowerCase();
        if (!existing.has(uuid)) {
          throw invalidField(`${path}.${index}`, `${path}.${index}: no tag of yours has the UUID ${value}.`);
        }
        return uuid;
      }
      const uuid = byName.get(String(value).trim().toLowerCase());
      if (!uuid) throw invalidField(`${path}.${index}`, `${path}.${index}: a tag name must not be empty.`);
      return uuid;
    });
    return [...new Set(resolved)];
  });
}

export async function requireList(db: Executor, teamId: number, uuid: string, field = 'list_uuid') {
  if (!(await listExists(db, teamId, uuid))) {
    throw invalidField(field, `${field} does not name one of your lists (${uuid}).`);
  }
}

export async function requireLeadStage(
  db: Executor,
  teamId: number,
  uuid: string,
  field = 'pipeline_stage_uuid',
) {
  if (!(await leadStageExists(db, teamId, uuid))) {
    throw invalidField(field, `${field} does not name one of your contact pipeline stages (${uuid}).`);
  }
}
