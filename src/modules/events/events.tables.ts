// Owner: events writes events.
import type { Json } from '../../db/column-types.js';

export interface EventsTable {
  team_id: number;
  uuid: string;
  name: string;
  lead_uuid: string | null;
  /** The delivered objects: contact, account, sender_profile, automation and the per-event ones. */
  payload: Json<Record<string, unknown>>;
  occurred_at: Date;
  /** Set when a webhook subscribed to the event when it was recorded. */
  fanout_batch: string | null;
}
