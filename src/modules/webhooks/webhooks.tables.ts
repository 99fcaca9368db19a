// Owner: webhooks writes webhooks, webhook_deliveries.
import type { CreatedAt, Defaulted, NullableJson, UpdatedAt } from '../../db/column-types.js';

export type WebhookStatus = 'on' | 'off';
export type RequestMethod = 'POST' | 'GET' | 'PUT' | 'PATCH' | 'DELETE';
export type DeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'failed' | 'canceled';

export interface WebhooksTable {
  team_id: number;
  uuid: string;
  user_id: number | null;
  name: string;
  event: string;
  request_method: Defaulted<RequestMethod>;
  target_url: string;
  filters: NullableJson<Record<string, unknown>>;
  status: Defaulted<WebhookStatus>;
  /** Standard Webhooks signing secret, `whsec_` + base64. */
  secret: string;
  /** The secret before the last rotation; deliveries carry its signature too until it expires. */
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  disabled_reason: string | null;
  last_error: string | null;
  last_error_at: Date | null;
  last_success_at: Date | null;
  failing_since: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface WebhookDeliveriesTable {
  team_id: number;
  uuid: string;
  webhook_uuid: string;
  event_uuid: string;
  status: Defaulted<DeliveryStatus>;
  attempt: Defaulted<number>;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  last_attempt_at: Date | null;
  next_retry_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
