import type { Database, Executor } from '../../db/database.js';
import { invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { lockTimelineRecord, recordActivities } from '../activities/activities.repository.js';
import type { LeadPurgeStep } from '../leads/lead-deletion.js';
import * as repo from './notes.repository.js';

type Actor = { teamId: number; userId: number };

function cleanText(text: string) {
  if (!text.trim()) throw invalidField('note', 'note must not be blank.');
  return text;
}

/** Purge step of the contact deletion job: the notes of deleted contacts go with them. */
export const purgeNotesOfDeletedLeads: LeadPurgeStep = async (trx, teamId, leadUuids) => {
  await repo.deleteNotesOf(trx, teamId, 'lead', leadUuids);
};

/** For company deletion: removes the notes of deleted companies (call in the deleting transaction). */
export async function deleteNotesOfCompanies(trx: Executor, teamId: number, companyUuids: string[]) {
  return repo.deleteNotesOf(trx, teamId, 'company', companyUuids);
}

export function createNotesService(deps: { db: Database }) {
  const { db } = deps;

  return {
    async listNotes(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.noteSort);
      const { rows, total } = await repo.selectNotes(db, teamId, params.filter, page);
      return envelope(rows, total, page);
    },

    async getNote(teamId: number, uuid: string) {
      const note = await repo.selectNote(db, teamId, uuid);
      if (!note) throw notFound('Note');
      return note;
    },

    async createNote(
      { teamId, userId }: Actor,
      input: { object: repo.NoteObject; object_uuid: string; note: string },
    ) {
      const text = cleanText(input.note);
      return db.transaction().execute(async (trx) => {
        if (!(await lockTimelineRecord(trx, teamId, input.object, input.object_uuid))) {
          throw notFound(input.object === 'lead' ? 'Contact' : 'Company');
        }
        const note = await repo.insertNote(trx, {
          team_id: teamId,
          uuid: newId(),
          user_id: userId,
          object: input.object,
          object_uuid: input.object_uuid,
          note: text,
        });
        await recordActivities(trx, teamId, [
          {
            type: 'note_added',
            objectType: input.object,
            objectUuid: input.object_uuid,
            payload: { note_uuid: note.uuid, note: text },
            userId,
          },
        ]);
        return note;
      });
    },

    async updateNote(teamId: number, uuid: string, text: string) {
      const note = await repo.updateNote(db, teamId, uuid, cleanText(text));
      if (!note) throw notFound('Note');
      return note;
    },

    async deleteNote(teamId: number, uuid: string) {
      if (!(await repo.deleteNote(db, teamId, uuid))) throw notFound('Note');
    },
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
