import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import {
  AccessKey,
  CreateSeatBody,
  ListSeatsBody,
  Seat,
  SeatPage,
  SeatParams,
  SetProxyBody,
  ShareSeatBody,
  UpdateSeatBody,
} from './browsers.schemas.js';
import type { BrowsersService } from './browsers.service.js';

export const browsersRoutes: FastifyPluginAsyncTypebox<{ browsers: BrowsersService }> = async (
  app,
  { browsers },
) => {
  const tags = ['LinkedIn browsers'];
  const seat = '/browsers/api/linkedin-browsers/:id';

  app.post(
    '/browsers/api/linkedin-browsers',
    {
      schema: {
        tags,
        operationId: 'createLinkedinBrowser',
        summary: 'Create a LinkedIn seat for a sender profile',
        description:
          'Step 2 of connecting a LinkedIn account. driver "chromium" (default) is a real browser: the seat is ' +
          'created stopped; send the account owner its login link (generate-external-access-key) and it runs ' +
          'once they have logged in. driver "sandbox" binds the sender to the simulated LinkedIn network: the ' +
          'seat runs at once (demos, tests). One seat per sender profile (409 otherwise). A chromium seat created ' +
          'where Chromium cannot start is created with status start_issue and the reason in error_reason. A proxy ' +
          'host on a private, loopback or link-local address is a 422 unless LEADFLOW_OUTBOUND_ALLOW_PRIVATE / ' +
          'LEADFLOW_OUTBOUND_ALLOWLIST open it.',
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
    seat,
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

  app.put(
    seat,
    {
      schema: {
        tags,
        operationId: 'updateLinkedinBrowser',
        summary: 'Update a LinkedIn seat',
        description:
          'Name, proxy and the invitation-note policy (invitations). A proxy change restarts the seat\u2019s browser with it.',
        params: SeatParams,
        body: UpdateSeatBody,
        response: { 200: Seat },
      },
    },
    async (request) => browsers.updateSeat(authOf(request).teamId, request.params.id, request.body),
  );

  app.delete(
    seat,
    {
      schema: {
        tags,
        operationId: 'deleteLinkedinBrowser',
        summary: 'Delete a LinkedIn seat',
        description:
          'Stops its browser and wipes its session and profile. The sender\u2019s LinkedIn steps wait for a new seat.',
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
    `${seat}/generate-external-access-key`,
    {
      schema: {
        tags,
        operationId: 'generateLinkedinBrowserAccessKey',
        summary: 'Create the public login link of a seat',
        description:
          'The link opens a live view of the seat\u2019s own browser on LinkedIn\u2019s login page, for the account ' +
          'owner to log in (2FA included) without sharing a password. No API key needed; valid 7 days; a new key ' +
          'revokes the previous link; proxy changes keep it. A sandbox seat needs no login (422).',
        params: SeatParams,
        response: { 200: AccessKey },
      },
    },
    async (request) => browsers.generateAccessKey(authOf(request).teamId, request.params.id),
  );

  app.post(
    `${seat}/health-check`,
    {
      schema: {
        tags,
        operationId: 'checkLinkedinBrowserHealth',
        summary: 'Check that LinkedIn\u2019s pages still work for a seat',
        description:
          'Asks for a selector health check of a chromium seat: a read-only tour of the pages the driver uses ' +
          '(feed, own profile, connections, a 1st-degree profile, a search, messaging, sent invitations, a ' +
          'company page) run by the next health round (every 5 minutes; also after each login and daily). ' +
          'Its result shows in selector_health; action types whose pages miss something pause for the seat ' +
          'until a check passes. A sandbox seat has nothing to check (422).',
        params: SeatParams,
        response: { 202: Seat },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await browsers.requestHealthCheck(authOf(request).teamId, request.params.id)),
  );

  app.post(
    `${seat}/run`,
    {
      schema: {
        tags,
        operationId: 'runLinkedinBrowser',
        summary: 'Run a LinkedIn seat',
        description:
          'Resumes a seat that was logged in before. A seat that never logged in turns login_issue instead ' +
          '(as the hosted service does): send its login link.',
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
    `${seat}/stop`,
    {
      schema: {
        tags,
        operationId: 'stopLinkedinBrowser',
        summary: 'Stop a LinkedIn seat',
        description:
          'Closes its browser (the session is kept, sealed, for run). The sender\u2019s LinkedIn steps wait.',
        params: SeatParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await browsers.stopSeat(authOf(request).teamId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${seat}/set-proxy`,
    {
      schema: {
        tags,
        operationId: 'setLinkedinBrowserProxy',
        summary: 'Change the proxy of a seat',
        params: SeatParams,
        body: SetProxyBody,
        response: { 200: Seat },
      },
    },
    async (request) => browsers.setProxy(authOf(request).teamId, request.params.id, request.body),
  );

  app.post(
    `${seat}/share`,
    {
      schema: {
        tags,
        operationId: 'shareLinkedinBrowser',
        summary: 'Share a seat with team members',
        description: 'Adds the recipients (e-mails of members of this team) to shared_emails.',
        params: SeatParams,
        body: ShareSeatBody,
        response: { 200: Seat },
      },
    },
    async (request) => browsers.shareSeat(authOf(request).teamId, request.params.id, request.body),
  );
};
