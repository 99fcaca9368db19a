// An action's attachments as a channel sends them: the files behind the `[{uuid}]` references an
// ActionRequest carries (a queued message's `attachments`, a flow node's payload), read from the file
// store when the action happens - like the e-mail driver's (`requireAttachments` + FileStore.read).
import type { Readable } from 'node:stream';
import type { Executor } from '../../db/database.js';
import type { FileStore } from '../files/storage.js';
import { selectAttachmentsByUuids } from './attachments.repository.js';

export type AttachmentFile = { uuid: string; name: string; mimeType: string; buffer: Buffer };

/** The files of `refs` in order, or the first reference whose record or file is gone. */
export type AttachmentFiles = (
  teamId: number,
  refs: ReadonlyArray<{ uuid: string }>,
) => Promise<{ ok: true; files: AttachmentFile[] } | { ok: false; missing: string }>;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function createAttachmentFiles(db: Executor, store: FileStore): AttachmentFiles {
  return async (teamId, refs) => {
    if (refs.length === 0) return { ok: true, files: [] };
    const rows = await selectAttachmentsByUuids(
      db,
      teamId,
      refs.map((r) => r.uuid),
    );
    const byUuid = new Map(rows.map((row) => [row.uuid, row]));
    const files: AttachmentFile[] = [];
    for (const ref of refs) {
      const row = byUuid.get(ref.uuid);
      if (!row) return { ok: false, missing: ref.uuid };
      try {
        files.push({
          uuid: row.uuid,
          name: row.name,
          mimeType: row.mime_type,
          buffer: await readAll(store.read(row.storage_key)),
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, missing: ref.uuid };
        throw error;
      }
    }
    return { ok: true, files };
  };
}

/** File names of the team's attachments among `uuids` (one statement; unknown uuids are left out). */
export async function attachmentNames(db: Executor, teamId: number, uuids: readonly string[]) {
  const rows = await selectAttachmentsByUuids(db, teamId, uuids);
  return new Map(rows.map((row) => [row.uuid, row.name]));
}
