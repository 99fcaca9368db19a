// Owner: enrichment writes credit_ledger, enrichment_queue.
import type { Generated } from 'kysely';
import type { CreatedAt, Defaulted } from '../../db/column-types.js';

export type CreditReason = 'opening_balance' | 'grant' | 'enrichment_reserve' | 'enrichment_refund';

/** One row per change of a team's enrichment credits (migration 0900). */
export interface CreditLedgerTable {
  team_id: number;
  id: Generated<number>;
  /** Signed: grants and refunds positive, reservations negative. */
  delta: number;
  reason: CreditReason;
  /** What the change is about: the enrichment request uuid (reserve), the queue entry uuid (refund). */
  reference: string | null;
  /** The team's balance right after this change. */
  balance_after: number;
  created_at: CreatedAt;
}

export type EnrichmentObject = 'lead' | 'company';
export type EnrichmentStatus = 'pending' | 'processing' | 'done' | 'failed';

export interface EnrichmentQueueTable {
  team_id: number;
  uuid: string;
  object: EnrichmentObject;
  object_uuid: string;
  status: Defaulted<EnrichmentStatus>;
  error: string | null;
  /** Overwrite fields that already have a value (else only empty fields are filled). */
  refresh: Defaulted<boolean>;
  source: 'api' | 'flow';
  /** The request that queued it (the reservation's ledger reference). */
  request_uuid: string;
  /** The sender whose account read it. */
  sender_profile_uuid: string | null;
  attempts: Defaulted<number>;
  next_attempt_at: Defaulted<Date>;
  claimed_at: Date | null;
  created_at: CreatedAt;
  finished_at: Date | null;
}
