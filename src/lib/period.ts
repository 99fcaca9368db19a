// A reporting period as clients send it: `period_from` / `period_to`, each an ISO date or date-time and
// each optional (left out: no bound, i.e. all time). A bare `period_to` date includes that whole day.
import { invalidField } from './errors.js';
import { isStorableTimestamp } from './timestamps.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function bound(value: string, field: 'period_from' | 'period_to'): string {
  if (Number.isNaN(Date.parse(value)) || !isStorableTimestamp(value)) {
    throw invalidField(field, `${field} must be an ISO 8601 date or date-time (got "${value}").`);
  }
  return DATE_ONLY.test(value) && field === 'period_to' ? `${value}T23:59:59.999Z` : value;
}

/** Bounds to compare a timestamptz with (PostgreSQL's infinities stand for a missing bound). */
export function periodBounds(input: { period_from?: string; period_to?: string }): {
  from: string;
  to: string;
} {
  const from = input.period_from === undefined ? '-infinity' : bound(input.period_from, 'period_from');
  const to = input.period_to === undefined ? 'infinity' : bound(input.period_to, 'period_to');
  if (input.period_from !== undefined && input.period_to !== undefined && Date.parse(from) > Date.parse(to)) {
    throw invalidField('period_to', 'period_to must not be before period_from.');
  }
  return { from, to };
}
