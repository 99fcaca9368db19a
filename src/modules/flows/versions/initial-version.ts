// The version a new flow starts with (spec 2.9): one end node and the default contact source, whose
// contacts would start (and finish) at that end node until a real tree is saved.
import type { Tree } from './tree-validation.js';

export function initialTree(now: string): Tree {
  return {
    nodes: [
      {
        id: 1,
        type: 'end',
        before: [],
        after: [],
        automation: 'auto',
        payload: {},
        delay_in_seconds: 0,
        created_at: now,
        updated_at: now,
      },
    ],
    contact_sources: [
      {
        id: 1,
        name: null,
        rotation_strategy: 'fair',
        sender_profiles: [],
        after_id: 1,
        active_limit: null,
        coworkers_limit: null,
        mass_actions_filter: null,
        filter_tree_format: null,
      },
    ],
    first_common_node_id: null,
  };
}
