import { randomBytes } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, invalidField, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { BlockedTargetError, outboundPolicy } from '../../lib/net/outbound.js';
import { envelope, type PageParams, resolvePage } from '../../lib/pagination.js';
import { periodBounds } from '../../lib/period.js';
import { EVENT_CATALOG, EVENT_NAMES, type EventName } from '../events/events.catalog.js';
import { loadLeadFilterSpec } from '../leads/leads.filter.js';
import { requireList } from '../leads/leads.references.js';
import * as deliveriesRepo from './deliveries.repository.js';
import { createDelivery } from './delivery.js';
import { fanOutHandler } from './fan-out.js';
import { samplePayload } from './sample-payloads.js';
import { createWebhookClient, InvalidTargetError } from './webhook-client.js';
import {
  compileWebhookFilters,
  filtersFromRequest,
  hasContactKeys,
  listUuidsOf,
  type WebhookFilters,
} from './webhook-filters.js';
import * as repo from './webhooks.repository.js';
import type {
  CreateWebhookBody,
  RotateSecretBody,
  TestWebhookBody,
  UpdateWebhookBody,
  WebhookMetricsBody,
} from './webhooks.schemas.js';
import { WEBHOOK_METRICS } from './webhooks.schemas.js';

/** The test endpoint keeps this much of the target's response body. */
const TEST_BODY_LIMIT = 64 * 1024;
const DEFAULT_PREVIOUS_SECRET_TTL_SECONDS = 86_400;

export type WebhooksDeps = {
  db: Database;
  config: Config;
  clock: Clock;
  /** DNS lookup for targets (default: the system resolver). */
  lookup?: LookupFunction;
};

/** A Standard Webhooks secret: whsec_ + base64 of 32 random bytes. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function createWebhooksService(deps: WebhooksDeps) {
  const { db, config, clock } = deps;
  const client = createWebhookClient({
    timeoutMs: config.webhooks.timeoutMs,
    policy: outboundPolicy(config, 'webhook'),
    ...(deps.lookup ? { lookup: deps.lookup } : {}),
  });
  const delivery = createDelivery({ db, config, clock, client });

  async function checkTarget(url: string): Promise<void> {
    try {
      await client.checkTarget(url);
    } catch (error) {
      if (error instanceof InvalidTargetError || error instanceof BlockedTargetError) {
        throw invalidField('target_url', error.message);
      }
      throw error;
    }
  }

  /** Compiles the filters the way fan-out will, so a filter that cannot run is refused now. */
  async function checkFilters(teamId: number, event: EventName, filters: WebhookFilters): Promise<void> {
    const spec = hasContactKeys(filters) ? await loadLeadFilterSpec(db, teamId) : undefined;
    compileWebhookFilters(event, filters, spec, teamId);
    for (const list of listUuidsOf(filters)) await requireList(db, teamId, list, 'filters.list_uuid');
  }

  async function requireWebhook(teamId: number, uuid: string) {
    const webhook = await repo.selectWebhook(db, teamId, uuid);
    if (!webhook) throw notFound('Webhook');
    return webhook;
  }

  return {
    async listWebhooks(teamId: number, params: PageParams & { filter?: unknown }) {
      const page = resolvePage(params, repo.webhookSort);
      const { rows, total } = await repo.selectWebhooks(db, teamId, params.filter, page);
      return envelope(rows, total, page);
    },

    getWebhook: requireWebhook,

    async createWebhook(teamId: number, userId: number, request: Static<typeof CreateWebhookBody>) {
      const body = { ...request, filters: filtersFromRequest(request.filters) };
      const event = body.event as EventName;
      await checkTarget(body.target_url);
      await checkFilters(teamId, event, body.filters);
      const secret = newSecret();
      const webhook = await repo.insertWebhook(db, {
        team_id: teamId,
        uuid: newId(),
        user_id: userId,
        name: body.name.trim(),
        event,
        request_method: body.request_method ?? 'POST',
        target_url: body.target_url,
        filters: body.filters === undefined || body.filters === null ? null : JSON.stringify(body.filters),
        status: body.status ?? 'on',
        secret,
      });
      return { ...webhook, secret, data: webhook };
    },

    async updateWebhook(teamId: number, uuid: string, request: Static<typeof UpdateWebhookBody>) {
      const body = { ...request, filters: filtersFromRequest(request.filters) };
      const current = await requireWebhook(teamId, uuid);
      if (body.target_url !== undefined) await checkTarget(body.target_url);
      // A new event can make the kept filters invalid (contact filters on a company event).
      if (body.filters !== undefined || body.event !== undefined) {
        const filters = body.filters !== undefined ? body.filters : current.filters;
        await checkFilters(teamId, (body.event ?? current.event) as EventName, filters);
      }
      const { filters, name, ...rest } = body;
      const webhook = await repo.updateWebhook(db, teamId, uuid, {
        ...rest,
        ...(name !== undefined ? { name: name.trim() } : {}),
        ...(filters !== undefined ? { filters: filters === null ? null : JSON.stringify(filters) } : {}),
      });
      if (!webhook) throw notFound('Webhook');
      return webhook;
    },

    /**
     * A new signing secret, shown once. The old one keeps signing deliveries next to it for
     * `previous_secret_ttl_seconds` (default a day) so receivers can switch without a gap.
     */
    async rotateSecret(teamId: number, uuid: string, body: Static<typeof RotateSecretBody>) {
      const ttlSeconds = body.previous_secret_ttl_seconds ?? DEFAULT_PREVIOUS_SECRET_TTL_SECONDS;
      const secret = newSecret();
      const webhook = await repo.rotateWebhookSecret(db, teamId, uuid, secret, ttlSeconds);
      if (!webhook) throw notFound('Webhook');
      return { ...webhook, secret };
    },

    async deleteWebhook(teamId: number, uuid: string) {
      if (!(await repo.deleteWebhook(db, teamId, uuid))) throw notFound('Webhook');
    },

    /** Sends a sample of the event to the target now, signed, and reports the response. Stores nothing. */
    async testWebhook(teamId: number, request: Static<typeof TestWebhookBody>) {
      const body = { ...request, filters: filtersFromRequest(request.filters) };
      const event = body.event as EventName;
      let secrets: { secret: string; previous_secret: string | null } = {
        secret: newSecret(),
        previous_secret: null,
      };
      if (body.uuid) {
        const saved = await repo.selectWebhookSecrets(db, teamId, body.uuid);
        if (!saved) throw notFound('Webhook');
        secrets = saved;
      }
      await checkTarget(body.target_url);
      await checkFilters(teamId, event, body.filters);
      const objects = await samplePayload(db, teamId, event, body.lead_uuid);
      const payload = {
        event_name: event,
        event_uuid: newId(),
        occurred_at: clock.now().toISOString(),
        team_id: teamId,
        ...objects,
      };
      const response = await client.send({
        url: body.target_url,
        method: body.request_method ?? 'POST',
        messageId: payload.event_uuid,
        secret: secrets.secret,
        previousSecret: secrets.previous_secret,
        body: JSON.stringify(payload),
        maxBodyBytes: TEST_BODY_LIMIT,
      });
      // DNS can change between the check and the connection; the connector's refusal is still a 422.
      if (response.blocked) throw invalidField('target_url', response.error ?? 'target refused');
      return {
        status_code: response.statusCode,
        headers: response.headers,
        body: response.body,
        body_truncated: response.bodyTruncated,
        duration_ms: response.durationMs,
        error: response.error,
        payload,
      };
    },

    async listDeliveries(teamId: number, webhookUuid: string, params: PageParams & { filter?: unknown }) {
      await requireWebhook(teamId, webhookUuid);
      const page = resolvePage(params, deliveriesRepo.deliverySort);
      const { rows, total } = await deliveriesRepo.selectDeliveries(
        db,
        teamId,
        webhookUuid,
        params.filter,
        page,
      );
      return envelope(rows, total, page);
    },

    /** Redelivers now, in the request: one more attempt whatever the delivery's state. */
    async retryDelivery(teamId: number, webhookUuid: string, deliveryUuid: string) {
      const webhook = await requireWebhook(teamId, webhookUuid);
      const current = await deliveriesRepo.selectDelivery(db, teamId, webhookUuid, deliveryUuid);
      if (!current) throw notFound('Delivery');
      if (webhook.status === 'off') {
        throw conflict('The webhook is off; set its status to "on" before redelivering.');
      }
      await delivery.attemptDeliveries(teamId, [{ uuid: deliveryUuid, attempt: current.attempt + 1 }], true);
      const updated = await deliveriesRepo.selectDelivery(db, teamId, webhookUuid, deliveryUuid);
      if (!updated) throw notFound('Delivery');
      return updated;
    },

    /** Per webhook, its deliveries of the period counted by status (other teams' webhooks left out). */
    async webhookMetrics(teamId: number, body: Static<typeof WebhookMetricsBody>) {
      const period = periodBounds(body);
      const uuids = [...new Set(body.uuids.map((uuid) => uuid.toLowerCase()))];
      const [owned, rows] = await Promise.all([
        repo.selectWebhookUuids(db, teamId, uuids),
        deliveriesRepo.countDeliveriesByStatus(db, teamId, uuids, period),
      ]);
      const metrics = body.metrics ?? WEBHOOK_METRICS;
      const result: Record<string, Record<string, number>> = {};
      for (const uuid of owned) {
        const counts: Record<string, number> = Object.fromEntries(WEBHOOK_METRICS.map((m) => [m, 0]));
        for (const row of rows.filter((r) => r.webhook_uuid === uuid)) {
          counts[row.status] = row.count;
          counts.total = (counts.total ?? 0) + row.count;
        }
        result[uuid] = Object.fromEntries(metrics.map((metric) => [metric, counts[metric] ?? 0]));
      }
      return result;
    },

    async eventCatalog(teamId: number) {
      const data = await Promise.all(
        EVENT_NAMES.map(async (name) => ({
          name,
          description: EVENT_CATALOG[name].description,
          about_contact: EVENT_CATALOG[name].contact,
          example: {
            event_name: name,
            event_uuid: '0190d4c2-7b1e-7c3a-9f00-0000000000ee',
            occurred_at: '2026-01-15T10:30:00.000Z',
            team_id: teamId,
            ...(await samplePayload(db, teamId, name)),
          },
        })),
      );
      return { data };
    },

    /** Job handlers of this module (fan-out of recorded events, delivery attempts). */
    jobs: [fanOutHandler({ db }), delivery.deliverHandler],

    /** Closes the HTTP connection pool. */
    close: () => client.close(),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
