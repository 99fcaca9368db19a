import { ApiError } from '../api';

/** The API's message for `field` (its path may be prefixed, "leads.0.email"), if the error names it. */
export function fieldMessage(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const entry = Object.entries(error.fields).find(([path]) => path === field || path.endsWith(`.${field}`));
  return entry?.[1].join(' ');
}
