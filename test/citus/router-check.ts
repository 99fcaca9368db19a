// The router-query check of `npm run test:citus`. Every node runs with citus.multi_task_query_log_level
// = log, so each statement Citus plans over more than one shard is logged with its SQL (CSV logs in
// the node's data dir). A statement the application sent (tagged by tag-queries.ts with its source
// line, or untagged: a leadflow process a test started) must carry a `/* cross-team:name */` mark
// named in CROSS_TEAM (src/db/citus.ts); statements of the tests themselves are theirs to make.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { CROSS_TEAM } from '../../src/db/citus.js';

export const MULTI_TASK = 'multi-task query about to be executed';

export type Violation = { statement: string; at: string; database: string; count: number };

// csvlog columns (PostgreSQL 15): 2 database, 13 message, 16 internal query, 19 query.
const DATABASE = 2;
const MESSAGE = 13;
const INTERNAL_QUERY = 16;
const QUERY = 19;

function normalise(statement: string): string {
  return statement
    .replace(/\/\* at [^*]*\*\/\s*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function findViolations(dataDirs: string[], ignoreDatabases: (name: string) => boolean): Violation[] {
  const found = new Map<string, Violation>();
  for (const dir of dataDirs) {
    const logDir = path.join(dir, 'log');
    let files: string[] = [];
    try {
      files = readdirSync(logDir).filter((f) => f.endsWith('.csv'));
    } catch {
      continue;
    }
    for (const file of files) {
      const rows = parse(readFileSync(path.join(logDir, file)), { relaxColumnCount: true }) as string[][];
      for (const row of rows) {
        if (row[MESSAGE] !== MULTI_TASK) continue;
        const database = row[DATABASE] ?? '';
        if (ignoreDatabases(database)) continue;
        // A statement inside a function (a trigger) is the internal query; the client's is the query.
        const sent = row[QUERY] ?? '';
        const statement = row[INTERNAL_QUERY] || sent;
        const at = /\/\* at ([^*]+?) \*\//.exec(sent)?.[1] ?? 'a leadflow process';
        if (/\.test\.ts:|^test\//.test(at)) continue;
        const mark = /\/\* cross-team:([a-z0-9-]+) \*\//.exec(statement)?.[1];
        if (mark && mark in CROSS_TEAM) continue;
        const key = `${at}\n${normalise(statement)}`;
        const seen = found.get(key);
        if (seen) seen.count += 1;
        else found.set(key, { statement: normalise(statement), at, database, count: 1 });
      }
    }
  }
  return [...found.values()];
}

export function describeViolations(violations: Violation[]): string {
  const lines = [
    `${violations.length} statement(s) reached more than one shard group on Citus (not router queries):`,
    '',
  ];
  for (const v of violations) {
    lines.push(
      `- from ${v.at} (${v.count}x, e.g. in database ${v.database}):`,
      `    ${v.statement.slice(0, 600)}`,
    );
  }
  lines.push(
    '',
    'A team\'s request must reach one shard group: filter every tenant table by "team_id = <the team>" and',
    'join tenant tables on team_id as well as their own keys (see src/modules/README.md, "Tenant tables").',
    'A background job that must span teams (retention, claims across teams) marks its statement with',
    "crossTeam('<name>') from src/db/citus.ts and adds <name> and the reason to CROSS_TEAM there.",
  );
  return lines.join('\n');
}
