// The import graph of src/, read from the sources with the TypeScript compiler's parser: value imports only
// (`import type`, and imports whose every name is `type`, vanish at compile time and cannot form a load cycle).
// Used by import-graph.test.ts (the rules) and printable with `npx tsx test/platform/import-graph.ts`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

export interface ImportEdge {
  from: string; // repository-relative path of the importing file
  to: string; // repository-relative path of the imported file, or the package name
  specifier: string;
  dynamic: boolean;
  /** the imported names (`*` for a namespace, `default`, `...` for a bare or re-export-all) */
  names: string[];
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Tests and their support files may reach into what they test. */
export const isTestFile = (path: string) => /\.test(-support)?\.ts$/.test(path);

function resolveSpecifier(fromFile: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const target = resolve(dirname(fromFile), specifier).replace(/\.js$/, '.ts');
  return relative(ROOT, target.endsWith('.ts') ? target : `${target}.ts`);
}

function valueNames(clause: ts.ImportClause | undefined): string[] {
  if (!clause) return ['...'];
  if (clause.isTypeOnly) return [];
  const names: string[] = [];
  if (clause.name) names.push('default');
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
  if (bindings && ts.isNamedImports(bindings))
    for (const el of bindings.elements) if (!el.isTypeOnly) names.push((el.propertyName ?? el.name).text);
  return names;
}

/** Every value import and re-export of one file. */
export function importsOf(file: string): ImportEdge[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const from = relative(ROOT, file);
  const add = (specifier: string, names: string[], dynamic: boolean) => {
    if (names.length === 0) return;
    edges.push({ from, to: resolveSpecifier(file, specifier), specifier, dynamic, names });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, valueNames(node.importClause), false);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (node.isTypeOnly) return;
      const clause = node.exportClause;
      const names =
        clause && ts.isNamedExports(clause)
          ? clause.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text)
          : ['...'];
      add(node.moduleSpecifier.text, names, false);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, ['*'], true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** All value imports of src/ (tests excluded: a test may reach into what it tests). */
export function srcImports(): ImportEdge[] {
  return sourceFiles(SRC)
    .filter((f) => !isTestFile(f))
    .flatMap(importsOf);
}

/** `src/modules/<name>/...` -> `<name>`; anything else -> undefined */
export function moduleOf(path: string): string | undefined {
  return /^src\/modules\/([^/]+)\//.exec(path)?.[1];
}

/** The module-level graph: module -> module -> the file edges behind it (static imports only). */
export function moduleGraph(edges = srcImports()): Map<string, Map<string, ImportEdge[]>> {
  const graph = new Map<string, Map<string, ImportEdge[]>>();
  for (const edge of edges) {
    if (edge.dynamic) continue;
    const a = moduleOf(edge.from);
    const b = moduleOf(edge.to);
    if (!a || !b || a === b) continue;
    const row = graph.get(a) ?? new Map<string, ImportEdge[]>();
    graph.set(a, row);
    row.set(b, [...(row.get(b) ?? []), edge]);
  }
  return graph;
}

/** Strongly connected components with more than one member (Tarjan): each is a cycle of modules. */
export function cycles(graph: Map<string, Map<string, unknown>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const nodes = new Set<string>([...graph.keys(), ...[...graph.values()].flatMap((r) => [...r.keys()])]);
  const strong = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) strong(v);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const edges = srcImports();
  const graph = moduleGraph(edges);
  const found = cycles(graph);
  console.log(`module cycles (strongly connected components): ${found.length}`);
  for (const c of found) {
    console.log(`  [${c.length}] ${c.join(' ')}`);
    for (const a of c)
      for (const [b, es] of graph.get(a) ?? [])
        if (c.includes(b))
          console.log(`     ${a} -> ${b}: ${[...new Set(es.map((e) => `${e.from} -> ${e.to}`))].join(', ')}`);
  }
  const engineFromOutside = new Set(
    edges.filter((e) => moduleOf(e.to) === 'engine' && moduleOf(e.from) !== 'engine').map((e) => e.to),
  );
  console.log(`engine files imported from outside engine: ${engineFromOutside.size}`);
  for (const f of [...engineFromOutside].sort()) console.log(`  ${f}`);
  const depsImporters = edges.filter((e) => e.to === 'src/deps.ts' && moduleOf(e.from)).map((e) => e.from);
  console.log(`modules importing src/deps.ts: ${depsImporters.join(', ') || 'none'}`);
}
