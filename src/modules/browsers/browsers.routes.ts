import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import { CreateSeatBody, ListSeatsBody, Seat, SeatPage, SeatParams } from './browsers.schemas.js';
import type { BrowsersService } from './browsers.service.js';

export const browsersRoutes: FastifyPluginAsyncTypebox<{ browsers: BrowsersService }> = async (
  app,
  { browsers },
) => {
  const tags = ['LinkedIn browsers'];

  app.post(
    '/browsers/api/linkedin-browsers',
    {
      schema: {
        tags,
        operationId: 'createLinkedinBrowser',
        summary: 'Create a LinkedIn seat for a sender profile',
        description:
          'Step 2 of connecting a LinkedIn account. driver "sandbox" binds the sender to the simulated LinkedIn ' +
          'network: the seat runs at once and the engine acts through it (demos, tests). driver "chromium" is a real ' +
          'browser that must be logged in first. One seat per sender profile (409 otherwise).',
        body: CreateSeatBody,
        response: { 201: Seat },
      },
    },
    async (request, reply) => reply.code(201).send(await browsers.createSeat(authOf(request), request.body)),
  );

  app.post(
    '/browsers/api/linkedin-browsers/list',
    {
      schema: {
        tags,
        operationId: 'listLinkedinBrowsers',
        summary: 'List LinkedIn seats',
        body: ListSeatsBody,
        response: { 200: SeatPage },
      },
    },
    async (request) => browsers.listSeats(authOf(request).teamId, request.body ?? {}),
  );

  app.get(
    '/browsers/api/linkedin-browsers/:id',
    {
      schema: {
        tags,
        operationId: 'getLinkedinBrowser',
        summary: 'Get a LinkedIn seat',
        params: SeatParams,
        response: { 200: Seat },
      },
    },
    async (request) => browsers.getSeat(authOf(request).teamId, request.params.id),
  );

  app.delete(
    '/browsers/api/linkedin-browsers/:id',
    {
      schema: {
        tags,
        operationId: 'deleteLinkedinBrowser',
        summary: 'Delete a LinkedIn seat',
        params: SeatParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await browsers.deleteSeat(authOf(request).teamId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/browsers/api/linkedin-browsers/:id/run',
    {
      schema: {
        tags,
        operationId: 'runLinkedinBrowser',
        summary: 'Run a LinkedIn seat',
        description: 'A seat that was never logged in turns login_issue instead of running.',
        params: SeatParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await browsers.runSeat(authOf(request).teamId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/browsers/api/linkedin-browsers/:id/stop',
    {
      schema: {
        tags,
        operationId: 'stopLinkedinBrowser',
        summary: 'Stop a LinkedIn seat',
        params: SeatParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await browsers.stopSeat(authOf(request).teamId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
