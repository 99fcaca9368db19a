// The OpenAPI document describes every field of every flows operation: path and query parameters,
// request bodies and success responses, nested objects and list items included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/harness.js';
import { dereference } from '../../http/openapi-components.js';

type Schema = {
  $ref?: string;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Operation = {
  parameters?: Array<{ name: string; in: string; description?: string; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

const FLOWS_PATHS = /^\/flows\/api\/(flows|flow-versions|flow-workspaces|flows-leads)(\/|$)/;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('OpenAPI document of the flows area', () => {
  it('describes every parameter and every field of bodies and success responses', async () => {
    const document = dereference(
      (await ctx.request(null, { method: 'GET', url: '/openapi.json' })).json(),
    ) as {
      paths: Record<string, Record<string, Operation>>;
      components?: { schemas?: Record<string, Schema> };
    };
    const components = document.components?.schemas ?? {};
    const resolve = (schema: Schema): Schema => {
      let current = schema;
      for (let hops = 0; current.$ref && hops < 10; hops++) {
        current = components[current.$ref.split('/').pop()!] ?? {};
      }
      return current;
    };
    const described = (schema: Schema): boolean => {
      const resolved = resolve(schema);
      if (schema.description || resolved.description) return true;
      // Nullable(X) and unions: described when a member is.
      return [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])].some((member) => described(member));
    };
    const undescribed: string[] = [];
    const walk = (schema: Schema | undefined, at: string, depth = 0): void => {
      if (!schema || depth > 12) return;
      const resolved = resolve(schema);
      for (const member of [...(resolved.anyOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.allOf ?? [])])
        walk(member, at, depth + 1);
      if (resolved.items) walk(resolved.items, `${at}[]`, depth + 1);
      if (typeof resolved.additionalProperties === 'object')
        walk(resolved.additionalProperties, `${at}{}`, depth + 1);
      for (const [name, property] of Object.entries(resolved.properties ?? {})) {
        if (!described(property)) undescribed.push(`${at}.${name}`);
        walk(property, `${at}.${name}`, depth + 1);
      }
    };

    let operations = 0;
    for (const [path, methods] of Object.entries(document.paths)) {
      if (!FLOWS_PATHS.test(path)) continue;
      for (const [method, operation] of Object.entries(methods)) {
        operations += 1;
        const name = `${method.toUpperCase()} ${path}`;
        for (const parameter of operation.parameters ?? []) {
          if (!parameter.description && !(parameter.schema && described(parameter.schema)))
            undescribed.push(`${name} ${parameter.in} ${parameter.name}`);
        }
        for (const content of Object.values(operation.requestBody?.content ?? {}))
          walk(content.schema, `${name} body`);
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!status.startsWith('2')) continue;
          for (const content of Object.values(response.content ?? {}))
            walk(content.schema, `${name} ${status}`);
        }
      }
    }
    expect(operations).toBeGreaterThan(25);
    expect(undescribed).toEqual([]);
  });
});
