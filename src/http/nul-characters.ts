// PostgreSQL text cannot hold U+0000, so a JSON body carrying one anywhere is refused as it is read:
// a 422 naming the field, before any validator, service or statement sees the value.
import { AppError } from '../lib/errors.js';

/** The path (`leads.0.first_name`) of the first string or key in `value` that holds U+0000. */
export function nulCharacterPath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulCharacterPath(item, path ? `${path}.${index}` : String(index));
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return at;
      const found = nulCharacterPath(item, at);
      if (found) return found;
    }
  }
  return undefined;
}

/** The 422 for a body with a NUL character, or undefined when it has none. */
export function nulCharacterError(body: unknown): AppError | undefined {
  const field = nulCharacterPath(body);
  if (!field) return undefined;
  const message = `${field} contains a NUL character (\\u0000), which text cannot hold.`;
  return new AppError('validation_error', message, { [field]: [message] });
}
