import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { noteFilterFields } from './notes.repository.js';
import { CreateNoteBody, Note, NotePage, NotesQuery, UpdateNoteBody } from './notes.schemas.js';
import type { NotesService } from './notes.service.js';

export const notesRoutes: FastifyPluginAsyncTypebox<{ notes: NotesService }> = async (app, { notes }) => {
  const tags = ['Notes'];

  app.get(
    '/leads/api/notes',
    {
      config: { filterFields: Object.keys(noteFilterFields) },
      schema: {
        tags,
        operationId: 'listNotes',
        summary: 'List notes',
        description:
          'Narrow to one record with filter[lead_uuid]=… or filter[company_uuid]=… (or object + object_uuid).',
        querystring: NotesQuery,
        response: { 200: NotePage },
      },
    },
    async (request) => notes.listNotes(authOf(request).teamId, request.query),
  );

  app.post(
    '/leads/api/notes',
    {
      schema: {
        tags,
        operationId: 'createNote',
        summary: 'Add a note to a contact or company',
        description: 'The contact or company must belong to your team (404 otherwise).',
        body: CreateNoteBody,
        response: {
          201: Note,
          404: errorResponse(404, 'the contact or company object_uuid names is not your team\u2019s'),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await notes.createNote(authOf(request), request.body)),
  );

  app.get(
    '/leads/api/notes/:uuid',
    {
      schema: {
        tags,
        operationId: 'getNote',
        summary: 'Get a note',
        params: UuidParams,
        response: { 200: Note },
      },
    },
    async (request) => notes.getNote(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/leads/api/notes/:uuid',
    {
      schema: {
        tags,
        operationId: 'updateNote',
        summary: 'Change a note\u2019s text',
        params: UuidParams,
        body: UpdateNoteBody,
        response: { 200: Note },
      },
    },
    async (request) => notes.updateNote(authOf(request).teamId, request.params.uuid, request.body.note),
  );

  app.delete(
    '/leads/api/notes/:uuid',
    {
      schema: {
        tags,
        operationId: 'deleteNote',
        summary: 'Delete a note',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await notes.deleteNote(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
