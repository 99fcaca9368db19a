// PostgreSQL text and jsonb cannot hold U+0000, and a client string carrying one would fail deep in
// a statement. The contact routes drop the character from every string of the body before validation.
import type { FastifyInstance } from 'fastify';

function stripNul(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
  if (Array.isArray(value)) return value.map(stripNul);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [
        stripNul(key) as string,
        stripNul(item),
      ]),
    );
  }
  return value;
}

/** Registers the hook on the (encapsulated) route plugin `app`. */
export function stripNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (
      request.body !== undefined &&
      request.body !== null &&
      JSON.stringify(request.body).includes('\\u0000')
    ) {
      request.body = stripNul(request.body);
    }
  });
}
