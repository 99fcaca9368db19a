// The generated OpenAPI document states each schema where a route uses it: inlined, a contact, a company
// or a webhook event is repeated wherever an operation takes or answers one (2.7 MB, and Swagger UI at
// /docs took tens of seconds to list the operations). shareComponents moves everything that repeats into
// `components` and points there with `$ref`: response headers, parameters, the error responses and every
// schema of some size that occurs more than once. Nothing is written by hand, so a new route shares too;
// `dereference` puts it all back inline and gives the same document (test/platform/openapi.test.ts).

type Json = Record<string, unknown>;

/**
 * A repeated schema is shared when that makes the document smaller: each use becomes a reference to its
 * name, and the schema is written once under that name. Small schemas used twice stay inline.
 */
const worthSharing = (length: number, count: number, name: string) =>
  count > 1 &&
  (count - 1) * length > count * ('{"$ref":"#/components/schemas/"}'.length + name.length) + name.length + 40;

/** Keywords whose value is one subschema, a list of them, or a map of them (JSON Schema 2020-12). */
const ONE = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** components[kind] of the document, created when missing. */
function section(document: Json, kind: string): Record<string, Json> {
  if (!isObject(document.components)) document.components = {};
  const components = document.components as Json;
  if (!isObject(components[kind])) components[kind] = {};
  return components[kind] as Record<string, Json>;
}

/**
 * Calls `visit` with each direct subschema of `schema`, a setter that replaces it and the name it would
 * get as a component, given the parent's: a property is named after itself, an item or a member of a
 * union after its parent.
 */
function eachSubschema(
  schema: Json,
  visit: (child: Json, replace: (value: Json) => void, name: (parent: Name) => Name) => void,
) {
  const suffixed = (suffix: string) => (parent: Name) => ({
    short: `${parent.short}${suffix}`,
    long: `${parent.long}${suffix}`,
  });
  for (const key of ONE) {
    const child = schema[key];
    const name = suffixed(key === 'items' ? 'Item' : pascal(key));
    if (isObject(child)) visit(child, (value) => (schema[key] = value), name);
  }
  for (const key of LIST) {
    const list = schema[key];
    if (Array.isArray(list))
      list.forEach((child, i) => {
        if (isObject(child)) visit(child, (value) => (list[i] = value), suffixed(`Option${i + 1}`));
      });
  }
  for (const key of MAP) {
    const map = schema[key];
    if (isObject(map))
      for (const [property, child] of Object.entries(map)) {
        const name = (parent: Name) => ({
          short: pascal(property),
          long: `${parent.long}${pascal(property)}`,
        });
        if (isObject(child)) visit(child, (value) => (map[property] = value), name);
      }
  }
}

/**
 * A shared schema's name: its title, else the property holding it (`Schedule`), else - when that is taken
 * or says little (`Data`) - the path from the operation (`ListTags200DataItem`).
 */
type Name = { short: string; long: string };
const VAGUE = /^(Data|Item|Value|Option)/;

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('');

type Operation = {
  operationId?: string;
  security?: unknown[];
  parameters?: Json[];
  requestBody?: { content?: Record<string, Json> };
  responses?: Record<string, Json>;
};

/** The objects holding the document's schemas (`schema`), each with a name to give it when it is shared. */
function schemaRoots(document: Json): Array<{ holder: { schema: Json }; name: string }> {
  const roots: Array<{ holder: { schema: Json }; name: string }> = [];
  const add = (holder: Json, name: string) => {
    if (isObject(holder.schema)) roots.push({ holder: holder as { schema: Json }, name });
  };
  for (const methods of Object.values((document.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(methods)) {
      const id = pascal(operation.operationId ?? 'operation');
      for (const parameter of operation.parameters ?? [])
        add(parameter, `${id}${pascal(String(parameter.name))}`);
      for (const content of Object.values(operation.requestBody?.content ?? {})) add(content, `${id}Body`);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const content of Object.values((response.content ?? {}) as Record<string, Json>))
          add(content, `${id}${status}`);
      }
    }
  }
  return roots;
}

/** How often each schema (as JSON text) occurs in `roots` and in the schemas already shared. */
function countSchemas(schemas: Json[]): Map<string, number> {
  const counts = new Map<string, number>();
  const walk = (schema: Json) => {
    if (typeof schema.$ref === 'string') return;
    const text = JSON.stringify(schema);
    counts.set(text, (counts.get(text) ?? 0) + 1);
    eachSubschema(schema, (child) => walk(child));
  };
  for (const schema of schemas) walk(schema);
  return counts;
}

/** Moves every repeated schema of some size into components.schemas (largest first, then what they hold). */
function shareSchemas(document: Json) {
  const shared = section(document, 'schemas');
  const names = new Map<string, string>();
  for (const [name, schema] of Object.entries(shared)) names.set(JSON.stringify(schema), name);
  const roots = schemaRoots(document);
  const uniqueName = (schema: Json, wanted: Name) => {
    const title = typeof schema.title === 'string' ? pascal(schema.title) : '';
    const free = [title, VAGUE.test(wanted.short) ? '' : wanted.short, wanted.long].find(
      (name) => name && !(name in shared),
    );
    if (free) return free;
    let name = title || wanted.long;
    for (let n = 2; name in shared; n += 1) name = `${title || wanted.long}_${n}`;
    return name;
  };
  // Each round shares the outermost repeated schemas; the next finds the repeats inside what is left.
  for (let round = 0; round < 20; round += 1) {
    const counts = countSchemas([...roots.map((root) => root.holder.schema), ...Object.values(shared)]);
    // Schemas shared in this round are looked into in the next, with counts that see them once.
    const before = Object.entries(shared);
    let changed = false;
    const visit = (schema: Json, replace: (value: Json) => void, name: Name, isComponent: boolean) => {
      if (typeof schema.$ref === 'string') return;
      const text = JSON.stringify(schema);
      const known = names.get(text);
      const wanted = known ?? uniqueName(schema, name);
      if (!isComponent && (known || worthSharing(text.length, counts.get(text) ?? 0, wanted))) {
        let ref = known;
        if (!ref) {
          ref = wanted;
          shared[ref] = schema;
          names.set(text, ref);
        }
        replace({ $ref: `#/components/schemas/${ref}` });
        changed = true;
        return;
      }
      eachSubschema(schema, (child, set, childName) => visit(child, set, childName(name), false));
    };
    for (const { holder, name } of roots)
      visit(holder.schema, (v) => (holder.schema = v), { short: name, long: name }, false);
    for (const [name, schema] of before) visit(schema, () => {}, { short: name, long: name }, true);
    if (!changed) break;
  }
}

/**
 * Moves each object of `kind` (a response header, a parameter, a response) that `key` names into
 * components[kind] when it occurs more than once; `key` gives its name or undefined to leave it inline.
 */
function shareRepeated(
  document: Json,
  kind: 'headers' | 'parameters' | 'responses',
  holders: Array<{ value: Json; replace: (value: Json) => void; name: string | undefined }>,
) {
  const counts = new Map<string, number>();
  for (const { value } of holders) {
    const text = JSON.stringify(value);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const shared = section(document, kind);
  const names = new Map<string, string>();
  for (const { value, replace, name } of holders) {
    const text = JSON.stringify(value);
    if (!name || (counts.get(text) ?? 0) < 2) continue;
    let ref = names.get(text);
    if (!ref) {
      ref = name;
      for (let n = 2; ref in shared; n += 1) ref = `${name}_${n}`;
      shared[ref] = value;
      names.set(text, ref);
    }
    replace({ $ref: `#/components/${kind}/${ref}` });
  }
}

function operations(document: Json): Operation[] {
  return Object.values((document.paths ?? {}) as Record<string, Record<string, Operation>>).flatMap(
    (methods) => Object.values(methods),
  );
}

/** A shared response's name: the status for errors (`404`), else what the answer holds. */
function responseName(status: string, response: Json): string | undefined {
  if (Number(status) >= 400) return status;
  const schema = Object.values((response.content ?? {}) as Record<string, Json>)[0]?.schema as
    | Json
    | undefined;
  if (typeof schema?.$ref === 'string') return `${schema.$ref.split('/').at(-1)}Response`;
  if (response.description === 'Default Response') return undefined;
  return pascal(String(response.description).split(/[.:;(]/)[0] ?? '');
}

/** Inlines again the schemas shared above that ended up used in one place only. */
function inlineSingles(document: Json, original: Set<string>) {
  const shared = (document.components as Json).schemas as Record<string, Json>;
  const uses = new Map<string, number>();
  const refName = (value: Json) =>
    typeof value.$ref === 'string' && value.$ref.startsWith('#/components/schemas/')
      ? value.$ref.slice('#/components/schemas/'.length)
      : undefined;
  const walk = (value: unknown, visit: (node: Json, replace: (v: Json) => void) => void) => {
    if (Array.isArray(value))
      value.forEach((item, i) => {
        if (isObject(item)) visit(item, (v) => (value[i] = v));
        walk(item, visit);
      });
    else if (isObject(value))
      for (const [key, child] of Object.entries(value)) {
        if (isObject(child)) visit(child, (v) => (value[key] = v));
        walk(value[key], visit);
      }
  };
  walk(document, (node) => {
    const name = refName(node);
    if (name) uses.set(name, (uses.get(name) ?? 0) + 1);
  });
  const single = new Set(
    [...Object.keys(shared)].filter((name) => !original.has(name) && uses.get(name) === 1),
  );
  const bodies = Object.fromEntries([...single].map((name) => [name, shared[name] as Json]));
  for (const name of single) delete shared[name];
  walk(document, (node, replace) => {
    const name = refName(node);
    if (name && bodies[name]) replace(bodies[name]);
  });
}

/**
 * The security requirement most operations state becomes the document's default; the others (public
 * pages: none) state theirs.
 */
function shareSecurity(document: Json, ops: Operation[]) {
  const owns = ops.map((op) => JSON.stringify(op.security ?? document.security ?? []));
  const counts = new Map<string, number>();
  for (const own of owns) counts.set(own, (counts.get(own) ?? 0) + 1);
  const [common] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!common || common === '[]') return;
  document.security = JSON.parse(common);
  ops.forEach((op, i) => {
    if (owns[i] === common) delete op.security;
    else op.security = JSON.parse(owns[i] as string);
  });
}

/** The document with its repeated parts in `components`, referenced with `$ref` (changes `document`). */
export function shareComponents(document: Json): Json {
  const ops = operations(document);
  shareSecurity(document, ops);
  const responses = ops.flatMap((op) => Object.values(op.responses ?? {}));
  shareRepeated(
    document,
    'headers',
    responses.flatMap((response) =>
      Object.entries((response.headers ?? {}) as Record<string, Json>).map(([name, value]) => ({
        value,
        name: pascal(name),
        replace: (ref: Json) => ((response.headers as Json)[name] = ref),
      })),
    ),
  );
  shareRepeated(
    document,
    'parameters',
    ops.flatMap((op) =>
      (op.parameters ?? []).map((value, i) => ({
        value,
        name: `${pascal(String(value.name))}${pascal(String(value.in))}`,
        replace: (ref: Json) => ((op.parameters as Json[])[i] = ref),
      })),
    ),
  );
  const original = new Set(Object.keys(((document.components as Json).schemas ?? {}) as Json));
  shareSchemas(document);
  inlineSingles(document, original);
  shareRepeated(
    document,
    'responses',
    ops.flatMap((op) =>
      Object.entries(op.responses ?? {}).map(([status, value]) => ({
        value,
        name: responseName(status, value),
        replace: (ref: Json) => ((op.responses as Json)[status] = ref),
      })),
    ),
  );
  return document;
}

/** The document with every local `$ref` replaced by a copy of what it points at (for tests and tools). */
export function dereference<T>(document: T): T {
  const root = document as unknown as Json;
  const resolve = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, part) => (node as Json)?.[part], root);
  const inline = (value: unknown, seen: string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, seen));
    if (!isObject(value)) return value;
    const ref = value.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (seen.includes(ref)) throw new Error(`circular $ref ${ref}`);
      const { $ref: _, ...siblings } = value;
      return { ...(inline(resolve(ref), [...seen, ref]) as Json), ...(inline(siblings, seen) as Json) };
    }
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, inline(child, seen)]));
  };
  return inline(document, []) as T;
}
