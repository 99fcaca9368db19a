import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authOf } from '../../../http/auth.js';
import { NoContent, UuidParams } from '../../../http/schemas.js';
import {
  CreateTrackingDomainBody,
  TrackingDomain,
  TrackingDomainPage,
  TrackingDomainsQuery,
} from './tracking-domains.schemas.js';
import type { TrackingDomainsService } from './tracking-domains.service.js';

const tags = ['Custom tracking domains'];
const BASE = '/emails/api/custom-tracking-domains';

export const trackingDomainsRoutes: FastifyPluginAsyncTypebox<{
  trackingDomains: TrackingDomainsService;
}> = async (app, { trackingDomains }) => {
  app.get(
    BASE,
    {
      schema: {
        tags,
        operationId: 'listCustomTrackingDomains',
        summary: 'List custom tracking domains',
        querystring: TrackingDomainsQuery,
        response: { 200: TrackingDomainPage },
      },
    },
    async (request) => trackingDomains.list(authOf(request).teamId, request.query),
  );

  app.post(
    BASE,
    {
      schema: {
        tags,
        operationId: 'createCustomTrackingDomain',
        summary: 'Add a custom tracking domain',
        description:
          'Stores the host as pending and answers cname_target: point a CNAME record of the host there, then ' +
          'verify it (POST .../{uuid}/verify). Mailboxes use it through custom_tracking_domain_uuid once verified.',
        body: CreateTrackingDomainBody,
        response: { 201: TrackingDomain },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await trackingDomains.create(authOf(request).teamId, request.body)),
  );

  app.get(
    `${BASE}/:uuid`,
    {
      schema: {
        tags,
        operationId: 'getCustomTrackingDomain',
        summary: 'Get a custom tracking domain and its DNS status',
        params: UuidParams,
        response: { 200: TrackingDomain },
      },
    },
    async (request) => trackingDomains.get(authOf(request).teamId, request.params.uuid),
  );

  app.post(
    `${BASE}/:uuid/verify`,
    {
      schema: {
        tags,
        operationId: 'verifyCustomTrackingDomain',
        summary: 'Check the CNAME now',
        description:
          'Looks up the CNAME of the domain and records the outcome: verified when it points at cname_target, ' +
          'failed (with error) otherwise. A verified domain that no longer points here is failed again.',
        params: UuidParams,
        response: { 200: TrackingDomain },
      },
    },
    async (request) => trackingDomains.verify(authOf(request).teamId, request.params.uuid),
  );

  app.delete(
    `${BASE}/:uuid`,
    {
      schema: {
        tags,
        operationId: 'deleteCustomTrackingDomain',
        summary: 'Delete a custom tracking domain',
        description: 'Mailboxes that used it go back to the server\u2019s own host for their links.',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await trackingDomains.remove(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );
};
