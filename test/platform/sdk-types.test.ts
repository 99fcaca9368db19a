// The SDK (packages/sdk) is typed from the OpenAPI document: when a route changes and the generated
// types were not regenerated (`npm run sdk:generate`), this fails - so CI catches a drifting client.
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../scripts/openapi-document.js';
import { SDK_TYPES_PATH, sdkTypes } from '../../scripts/sdk.js';

it('packages/sdk/src/openapi.ts is what the OpenAPI document generates', { timeout: 240_000 }, async () => {
  const expected = await sdkTypes(await buildOpenApiDocument());
  const committed = await readFile(SDK_TYPES_PATH, 'utf8');
  // Compared by line, so a failure shows where the document and the types part ways.
  if (committed !== expected) {
    const a = committed.split('\n');
    const b = expected.split('\n');
    const first = b.findIndex((line, i) => line !== a[i]);
    expect(a.slice(first, first + 5).join('\n'), 'run npm run sdk:generate').toBe(
      b.slice(first, first + 5).join('\n'),
    );
  }
  expect(committed === expected).toBe(true);
});
