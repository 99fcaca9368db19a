// Who writes which table, read from the sources: each `*.tables.ts` of src/modules opens with a line
// `// Owner: <module> writes <table>, <table>; <module>, <module> write <table>.` naming the module (folder of
// src/modules) that owns - writes - each table it declares, and the writes of every module file are its
// query-builder calls (`insertInto`, `updateTable`, `deleteFrom` on a table name) and its raw SQL
// (`insert into`, `update`, `delete from` a table name). Used by table-owners.test.ts and printable with
// `npx tsx test/platform/table-owners.ts`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { isTestFile, moduleOf, ROOT } from './import-graph.js';

const MODULES = join(ROOT, 'src/modules');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

export interface TableDeclaration {
  table: string;
  file: string; // the *.tables.ts that declares it
  owners: string[]; // modules named by its Owner line
}

/** Every table of src/modules: the tables file declaring it (`name: SomethingTable;`) and its owners. */
export function tableOwners(): TableDeclaration[] {
  const files = sourceFiles(MODULES).filter((f) => f.endsWith('.tables.ts'));
  const interfaceFile = new Map<string, string>();
  for (const file of files)
    for (const m of readFileSync(file, 'utf8').matchAll(/^export interface (\w+Table) /gm))
      interfaceFile.set(m[1]!, relative(ROOT, file));
  const tableFiles = [...files, join(ROOT, 'src/db/schema.ts')];
  const declared = new Map<string, string>();
  for (const file of tableFiles)
    for (const m of readFileSync(file, 'utf8').matchAll(/^\s+([a-z_]+): ([A-Z]\w*Table);$/gm)) {
      const home = interfaceFile.get(m[2]!);
      if (home) declared.set(m[1]!, home);
    }
  const ownersByTable = new Map<string, string[]>();
  for (const file of files) {
    const line = /^\/\/ Owner: (.+)\.$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
    for (const clause of line.split(';')) {
      const m = /^\s*([\w-]+(?:,\s*[\w-]+)*)\s+writes?\s+(.+)$/.exec(clause);
      if (!m) continue;
      const owners = m[1]!.split(',').map((s) => s.trim());
      for (const table of m[2]!.split(',').map((s) => s.trim())) ownersByTable.set(table, owners);
    }
  }
  return [...declared].map(([table, file]) => ({ table, file, owners: ownersByTable.get(table) ?? [] }));
}

export interface TableWrite {
  file: string;
  table: string;
}

/** The table writes of the module files (tests, test support and fixtures excluded). */
export function tableWrites(tables: string[]): TableWrite[] {
  const names = tables.join('|');
  const pattern = new RegExp(
    `\\.(?:insertInto|updateTable|deleteFrom)\\(\\s*['"](${names})(?:\\s+as\\s+\\w+)?['"]|` +
      `\\b(?:insert\\s+into|update|delete\\s+from)\\s+(${names})\\b`,
    'gi',
  );
  const writes: TableWrite[] = [];
  for (const path of sourceFiles(MODULES)) {
    if (isTestFile(path) || path.endsWith('.fixtures.ts')) continue;
    const file = relative(ROOT, path);
    const found = new Set<string>();
    for (const m of readFileSync(path, 'utf8').matchAll(pattern)) found.add((m[1] ?? m[2])!.toLowerCase());
    for (const table of found) writes.push({ file, table });
  }
  return writes;
}

/** Writes of a table from outside the modules that own it, as `file -> table`. */
export function foreignWrites(): string[] {
  const owners = new Map(tableOwners().map((d) => [d.table, d.owners]));
  return tableWrites([...owners.keys()])
    .filter((w) => !(owners.get(w.table) ?? []).includes(moduleOf(w.file) ?? ''))
    .map((w) => `${w.file} -> ${w.table}`)
    .sort();
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const declarations = tableOwners();
  for (const d of declarations)
    console.log(`${d.table}: ${d.owners.join(', ') || '(no owner)'}  (${d.file})`);
  const foreign = foreignWrites();
  console.log(`\nwrites from outside the owner: ${foreign.length}`);
  for (const line of foreign) console.log(`  ${line}`);
}
