import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type PathAlias, withAliases } from '../../http/aliases.js';
import { authOf } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent, UuidParams } from '../../http/schemas.js';
import { deliveryFilterFields } from './deliveries.repository.js';
import { webhookFilterFields } from './webhooks.repository.js';
import {
  CreatedWebhook,
  CreateWebhookBody,
  DeliveriesQuery,
  Delivery,
  DeliveryPage,
  DeliveryParams,
  EventCatalog,
  RotatedWebhook,
  RotateSecretBody,
  TestWebhookBody,
  TestWebhookResult,
  UpdateWebhookBody,
  Webhook,
  WebhookMetrics,
  WebhookMetricsBody,
  WebhookPage,
  WebhooksQuery,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

// The payload union (one schema per event) documents the body; compiling it into a serializer takes
// seconds for no gain, since the payload is plain JSON built by this module.
const plainJson = () => (data: unknown) => JSON.stringify(data);

const SIGNING =
  'Deliveries are signed per Standard Webhooks (headers webhook-id = event_uuid, webhook-timestamp, ' +
  'webhook-signature); verify them with any Standard Webhooks library and the secret returned on create ' +
  '(or by POST /integrations/api/webhooks/{uuid}/rotate-secret).';

/** The hosted service's internal path of the same API (the MCP server uses it). */
const ALIASES: PathAlias[] = [
  { path: '/integrations/api/webhooks', alias: '/integrations/c1/api/webhooks', operationSuffix: 'C1' },
];

export const webhooksRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService }> = async (
  instance,
  { webhooks },
) => {
  const app = withAliases(instance, ALIASES);
  const tags = ['Webhooks'];

  app.get(
    '/integrations/api/webhooks',
    {
      config: { filterFields: Object.keys(webhookFilterFields) },
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'List webhooks',
        querystring: WebhooksQuery,
        response: { 200: WebhookPage },
      },
    },
    async (request) => webhooks.listWebhooks(authOf(request).teamId, request.query),
  );

  app.post(
    '/integrations/api/webhooks',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Create a webhook',
        description: `One webhook receives one event. The response carries the signing secret, once. ${SIGNING}`,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhook },
      },
    },
    async (request, reply) => {
      const { teamId, userId } = authOf(request);
      return reply.code(201).send(await webhooks.createWebhook(teamId, userId, request.body));
    },
  );

  app.get(
    '/integrations/api/webhooks/events',
    {
      serializerCompiler: plainJson,
      schema: {
        tags,
        operationId: 'listWebhookEvents',
        summary: 'The event catalog, with an example payload of each event',
        response: { 200: EventCatalog },
      },
    },
    async (request) => webhooks.eventCatalog(authOf(request).teamId),
  );

  app.post(
    '/integrations/api/webhooks/test',
    {
      config: { ownerOnly: true },
      serializerCompiler: plainJson,
      schema: {
        tags,
        operationId: 'testWebhook',
        summary: 'Send a sample event to a target and return its response',
        description:
          'The body is a full webhook config; nothing is stored. With lead_uuid the sample is built from ' +
          `that contact. With uuid (a saved webhook) its secret signs the request. ${SIGNING}`,
        body: TestWebhookBody,
        response: {
          200: TestWebhookResult,
          404: errorResponse(404, 'no webhook of your team has that uuid (or no contact that lead_uuid)'),
        },
      },
    },
    async (request) => webhooks.testWebhook(authOf(request).teamId, request.body),
  );

  app.post(
    '/integrations/api/webhooks/metrics',
    {
      schema: {
        tags,
        operationId: 'webhookMetrics',
        summary: 'Delivery counts per webhook',
        description:
          'For each webhook named in uuids, how many deliveries it had in the period (by when the event was ' +
          'matched to it), in total and per status. Unknown UUIDs and other teams’ webhooks are left out.',
        body: WebhookMetricsBody,
        response: { 200: WebhookMetrics },
      },
    },
    async (request) => webhooks.webhookMetrics(authOf(request).teamId, request.body),
  );

  app.get(
    '/integrations/api/webhooks/:uuid',
    {
      schema: {
        tags,
        operationId: 'getWebhook',
        summary: 'Get a webhook',
        params: UuidParams,
        response: { 200: Webhook },
      },
    },
    async (request) => webhooks.getWebhook(authOf(request).teamId, request.params.uuid),
  );

  app.put(
    '/integrations/api/webhooks/:uuid',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'updateWebhook',
        summary: 'Update a webhook (only the fields sent)',
        description: 'Setting status to "on" also clears disabled_reason and starts a new failure window.',
        params: UuidParams,
        body: UpdateWebhookBody,
        response: { 200: Webhook },
      },
    },
    async (request) => webhooks.updateWebhook(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.post(
    '/integrations/api/webhooks/:uuid/rotate-secret',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description:
          'Issues a new secret and shows it once. Until previous_secret_expires_at every delivery carries two ' +
          'signatures in webhook-signature, one per secret, so a receiver verifies with either while it ' +
          'switches to the new one (Standard Webhooks verifiers accept any matching signature).',
        params: UuidParams,
        body: RotateSecretBody,
        response: { 200: RotatedWebhook },
      },
      // The body is optional: a bare POST rotates with the defaults.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => webhooks.rotateSecret(authOf(request).teamId, request.params.uuid, request.body),
  );

  app.delete(
    '/integrations/api/webhooks/:uuid',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook and its delivery log',
        params: UuidParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await webhooks.deleteWebhook(authOf(request).teamId, request.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/integrations/api/webhooks/:uuid/deliveries',
    {
      config: { filterFields: Object.keys(deliveryFilterFields) },
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'The delivery log of a webhook',
        description: 'One item per event sent to the webhook, with the outcome of its latest attempt.',
        params: UuidParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryPage },
      },
    },
    async (request) => webhooks.listDeliveries(authOf(request).teamId, request.params.uuid, request.query),
  );

  app.post(
    '/integrations/api/webhooks/:uuid/deliveries/:deliveryUuid/retry',
    {
      config: { ownerOnly: true },
      schema: {
        tags,
        operationId: 'retryWebhookDelivery',
        summary: 'Redeliver now',
        description:
          'Makes one more attempt right away, whatever the delivery\u2019s state, and returns the delivery ' +
          'with its outcome. A failure schedules the remaining retries. 409 when the webhook is off.',
        params: DeliveryParams,
        response: { 200: Delivery, 409: errorResponse(409, 'the webhook is off') },
      },
    },
    async (request) =>
      webhooks.retryDelivery(authOf(request).teamId, request.params.uuid, request.params.deliveryUuid),
  );
};
