import { Type } from 'typebox';
import { DateTime, Envelope, ListQuery, Nullable, Uuid, withExample } from '../../http/schemas.js';
import { NOTE_OBJECTS, noteFilterFields, noteSort } from './notes.repository.js';

const NoteObjectSchema = Type.Enum(NOTE_OBJECTS, {
  description: 'What the note is attached to: lead (a contact) or company',
});
const text = Type.String({ minLength: 1, maxLength: 65_535, description: 'The note\u2019s text' });

export const Note = Type.Object(
  {
    uuid: Uuid('Note id'),
    team_id: Type.Integer({ description: 'Team the note belongs to' }),
    user_id: Nullable(Type.Integer({ description: 'Author' })),
    object: NoteObjectSchema,
    object_uuid: Uuid('The contact or company the note is attached to'),
    note: text,
    created_at: DateTime('When the note was written'),
    updated_at: DateTime('When the text last changed'),
  },
  { description: 'A text note on a contact or a company' },
);

export const NotePage = Envelope(Note);
export const NotesQuery = ListQuery(noteSort, Object.keys(noteFilterFields));

export const CreateNoteBody = Type.Object(
  {
    object: NoteObjectSchema,
    object_uuid: Uuid('The contact or company; it must belong to your team'),
    note: text,
  },
  { additionalProperties: false },
);

export const UpdateNoteBody = Type.Object({ note: text }, { additionalProperties: false });

withExample(CreateNoteBody, {
  object: 'lead',
  object_uuid: '0190f000-0000-7000-8000-000000000001',
  note: 'Met at SaaStr; follow up in May.',
});
withExample(UpdateNoteBody, { note: 'Met at SaaStr; follow up in June.' });
