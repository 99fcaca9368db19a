// Each table has an owner: the module (folder of src/modules) named by the `// Owner:` line of the
// `*.tables.ts` that declares it, and only that module writes it (insertInto / updateTable / deleteFrom,
// or raw insert / update / delete SQL). Other modules change it through functions the owner exports
// (table-owners.ts reads both). Where today's code still writes another module's table, the rule lists
// it by name: the list may only shrink - a new foreign write fails, and so does a listed one that was
// moved (strike it).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './import-graph.js';
import { foreignWrites, tableOwners } from './table-owners.js';

/** `file -> table`: writes of a table from outside its owner, to be moved into the owner one by one. */
const KNOWN_FOREIGN_WRITES: string[] = [
  'src/modules/accounts/accounts.repository.ts -> team_members',
  'src/modules/accounts/accounts.repository.ts -> teams',
  'src/modules/accounts/accounts.repository.ts -> users',
  'src/modules/ai/llm-logs.ts -> llm_logs',
  'src/modules/ai/llms.repository.ts -> ai_templates',
  // The blacklist flags (is_blacklisted) are the blacklist rule's derived column; the blacklists module
  // sits below leads and companies (they call it after every write), so it cannot call them back.
  'src/modules/blacklists/blacklist-match.ts -> companies',
  'src/modules/blacklists/blacklist-match.ts -> leads',
  'src/modules/browsers/browsers.service.ts -> sender_profiles',
  'src/modules/channels/seat-issue.ts -> linkedin_browsers',
  'src/modules/email/mailboxes/mailboxes.repository.ts -> sender_profiles',
  'src/modules/engine/run/outcomes.ts -> linkedin_browsers',
  'src/modules/enrichment/credits.ts -> teams',
  // Profile and company page fills (one UPDATE ... FROM jsonb_to_recordset per batch); also
  // markReadFailures, whose table is a parameter (sql.table) this reader cannot see.
  'src/modules/enrichment/enrichment.fill.ts -> companies',
  'src/modules/enrichment/enrichment.fill.ts -> leads',
  'src/modules/flows/enrollments/enrollments.repository.ts -> flow_leads',
  'src/modules/flows/versions/version-switch.ts -> flow_leads',
  'src/modules/linkedin-messages/linkedin-inbox-health.ts -> linkedin_browsers',
  'src/modules/linkedin-messages/linkedin-sync.ts -> linkedin_browsers',
  'src/modules/read-state/read-state.repository.ts -> emails',
  'src/modules/read-state/read-state.repository.ts -> linkedin_conversations',
  'src/modules/read-state/read-state.repository.ts -> linkedin_messages',
  'src/modules/senders/senders.repository.ts -> data_sources',
  'src/modules/senders/senders.repository.ts -> flow_leads',
  'src/modules/senders/senders.repository.ts -> sender_channel_state',
  'src/modules/senders/senders.repository.ts -> tasks',
  'src/modules/tasks/tasks.restart.ts -> flow_leads',
];

describe('table owners', () => {
  const declarations = tableOwners();

  it('every table of src/modules names its owner modules, and they exist', () => {
    expect(declarations.length).toBeGreaterThan(50);
    expect(declarations.filter((d) => d.owners.length === 0).map((d) => `${d.table} (${d.file})`)).toEqual(
      [],
    );
    const unknown = declarations.flatMap((d) =>
      d.owners.filter((owner) => !existsSync(join(ROOT, 'src/modules', owner))),
    );
    expect(unknown).toEqual([]);
  });

  it('contacts and companies are written only by their own modules (and the listed exceptions)', () => {
    const owners = Object.fromEntries(declarations.map((d) => [d.table, d.owners]));
    expect(owners.leads).toEqual(['leads']);
    expect(owners.companies).toEqual(['companies']);
  });

  it('no module writes another module’s table beyond the known list, which only shrinks', () => {
    const found = foreignWrites();
    expect(found.filter((w) => !KNOWN_FOREIGN_WRITES.includes(w))).toEqual([]);
    expect(
      KNOWN_FOREIGN_WRITES.filter((w) => !found.includes(w)),
      'moved into the owner: strike from KNOWN_FOREIGN_WRITES',
    ).toEqual([]);
  });
});
