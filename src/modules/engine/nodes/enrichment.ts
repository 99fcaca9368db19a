// gs_enqueue_for_enrichment: the contact goes into the enrichment queue when the batch commits (one
// credit reserved; blacklisted contacts, contacts without a LinkedIn reference and contacts already
// queued are left out, `outdated_only` leaves out contacts enriched within the threshold). The contact
// moves on at once; the queue entry says what became of it.
import { Type } from 'typebox';
import { defineNode } from './define.js';
import { closed, closedStep, LINEAR, opt, seconds } from './payload.js';

/** outdated_only without a threshold: 30 days. */
const DEFAULT_THRESHOLD_SECONDS = 2_592_000;

const ENRICHMENT = defineNode({
  types: { gs_enqueue_for_enrichment: 'Queues the contact for enrichment' },
  category: 'action',
  branches: LINEAR,
  payload: closed({
    run_settings: opt(
      Type.Union([Type.Literal('all_contacts'), Type.Literal('outdated_only')], {
        description: 'Enrich every contact, or only those enriched longer ago than the threshold',
      }),
    ),
    outdated_older_than_in_seconds: opt(seconds('Threshold for outdated_only')),
  }),
  run(work, node) {
    const outdatedOnly = node.payload.run_settings === 'outdated_only';
    work.effects.push({
      kind: 'enqueue_enrichment',
      leadUuid: work.fl.lead_uuid,
      olderThanSeconds: outdatedOnly
        ? (node.payload.outdated_older_than_in_seconds ?? DEFAULT_THRESHOLD_SECONDS)
        : null,
    });
    return closedStep();
  },
});

export const ENRICHMENT_NODES = [ENRICHMENT];
