// The module boundaries, read from the sources (import-graph.ts): value imports between the folders of
// src/modules must form no cycle; only the engine's facade (engine/index.ts) is imported from outside
// the engine; no module imports the composition root (src/deps.ts, src/deps/); routes and services hold
// no SQL.
// Where today's code still breaks a rule, the rule lists the offenders by name: the list may only
// shrink - a new offender fails, and so does a listed one that was fixed (strike it from the list).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, type ImportEdge, moduleGraph, moduleOf, ROOT, srcImports } from './import-graph.js';

const edges = srcImports();

/** Modules still inside a cycle: none - the module graph is acyclic, and a new cycle fails. */
const KNOWN_CYCLE_MODULES: string[] = [];

/** Files outside the engine that still import an engine file other than engine/index.ts. */
const KNOWN_ENGINE_INTERNAL_IMPORTERS: string[] = [];

/** Files of src/modules that still import the composition root (src/deps.ts or a file of src/deps/). */
const KNOWN_DEPS_IMPORTERS: string[] = [];

/** Routes and services that still import values from kysely (SQL belongs in repositories): none left. */
const KNOWN_SQL_IN_ROUTES_AND_SERVICES: string[] = [];

/** Routes and services that still build queries with the executor they are given (db.selectFrom...). */
const KNOWN_QUERIES_IN_ROUTES_AND_SERVICES: string[] = [
  'src/modules/ai-templates/ai-templates.service.ts',
  'src/modules/ai/llms.service.ts',
  'src/modules/browsers/browsers.service.ts',
  'src/modules/email/mailboxes/mailboxes.service.ts',
  'src/modules/linkedin-messages/linkedin-messages.service.ts',
];

function offenders(list: ImportEdge[]): string[] {
  return [...new Set(list.map((e) => e.from))].sort();
}

describe('module boundaries', () => {
  it('the modules form no new import cycle, and the known ones only shrink', () => {
    const graph = moduleGraph(edges);
    const found = cycles(graph);
    const inCycles = found.flat().sort();
    const explain = found
      .map((members) =>
        members
          .flatMap((a) =>
            [...(graph.get(a) ?? [])]
              .filter(([b]) => members.includes(b))
              .map(([b, es]) => `${a} -> ${b} (${es[0]!.from} -> ${es[0]!.to})`),
          )
          .join('\n'),
      )
      .join('\n\n');
    expect(
      inCycles.filter((m) => !KNOWN_CYCLE_MODULES.includes(m)),
      explain,
    ).toEqual([]);
    expect(
      KNOWN_CYCLE_MODULES.filter((m) => !inCycles.includes(m)),
      'freed from the cycle: strike from KNOWN_CYCLE_MODULES',
    ).toEqual([]);
  });

  it('only engine/index.ts is imported from outside the engine', () => {
    const found = offenders(
      edges.filter(
        (e) =>
          moduleOf(e.to) === 'engine' &&
          moduleOf(e.from) !== 'engine' &&
          e.to !== 'src/modules/engine/index.ts' &&
          e.from.startsWith('src/modules/'),
      ),
    );
    expect(found.filter((f) => !KNOWN_ENGINE_INTERNAL_IMPORTERS.includes(f))).toEqual([]);
    expect(KNOWN_ENGINE_INTERNAL_IMPORTERS.filter((f) => !found.includes(f))).toEqual([]);
  });

  it('no module imports the composition root', () => {
    const root = (file: string) => file === 'src/deps.ts' || file.startsWith('src/deps/');
    const found = offenders(edges.filter((e) => root(e.to) && moduleOf(e.from)));
    expect(found.filter((f) => !KNOWN_DEPS_IMPORTERS.includes(f))).toEqual([]);
    expect(KNOWN_DEPS_IMPORTERS.filter((f) => !found.includes(f))).toEqual([]);
  });

  it('routes and services import no SQL builder (it lives in repositories and *.sql.ts files)', () => {
    const found = offenders(edges.filter((e) => e.to === 'kysely' && /\.(routes|service)\.ts$/.test(e.from)));
    expect(found.filter((f) => !KNOWN_SQL_IN_ROUTES_AND_SERVICES.includes(f))).toEqual([]);
    expect(KNOWN_SQL_IN_ROUTES_AND_SERVICES.filter((f) => !found.includes(f))).toEqual([]);
  });

  it('routes and services build no queries either (db.selectFrom, updateTable, insertInto, deleteFrom)', () => {
    const files = [...new Set(edges.map((e) => e.from))].filter((f) => /\.(routes|service)\.ts$/.test(f));
    const query = /\.(selectFrom|updateTable|insertInto|deleteFrom|replaceInto|mergeInto)\(/;
    const found = files.filter((f) => query.test(readFileSync(join(ROOT, f), 'utf8'))).sort();
    expect(found.filter((f) => !KNOWN_QUERIES_IN_ROUTES_AND_SERVICES.includes(f))).toEqual([]);
    expect(KNOWN_QUERIES_IN_ROUTES_AND_SERVICES.filter((f) => !found.includes(f))).toEqual([]);
  });

  it('reads value imports only: a type import forms no edge', () => {
    // The engine imports types of the flows module (its tables); those are no dependency at run time.
    const typeOnly = edges.filter(
      (e) => e.from === 'src/modules/enrollments/enroll.ts' && /flows/.test(e.to),
    );
    expect(typeOnly).toEqual([]);
    expect(edges.some((e) => e.from === 'src/modules/enrollments/enroll.ts' && e.to === 'kysely')).toBe(true);
  });
});
