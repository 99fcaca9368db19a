// The soak's clients: a mixed load at a fixed rate spread over the API processes. Clients retry what is
// safe to retry (every write here is idempotent by a natural key: a contact's LinkedIn id, an
// enrollment's contact and flow), so a request cut by a crash is repeated, not lost or doubled.
import type { LeadflowProcess } from './processes.js';

export type Kind = 'contact_create' | 'contact_search' | 'enroll' | 'tasks_list';

export type Sample = { kind: Kind; ms: number; status: number; chaos: boolean; retries: number };

export type LoadState = {
  samples: Sample[];
  /** Contacts the API accepted (uuid → the LinkedIn id sent). */
  accepted: Map<string, string>;
  /** Contacts accepted into the flow. */
  enrolled: Set<string>;
  /** Set while a process is down or the database restarts (latency is reported apart). */
  chaos: () => boolean;
};

type Target = { apis: LeadflowProcess[]; apiKey: string; listUuid: string; flowUuid: string };

const RETRIES = 8;

async function call(
  target: Target,
  state: LoadState,
  kind: Kind,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const started = performance.now();
  const chaos = state.chaos();
  let status = 0;
  let json: unknown;
  let retries = 0;
  for (; retries <= RETRIES; retries += 1) {
    const api = target.apis[Math.floor(Math.random() * target.apis.length)]!;
    try {
      const response = await fetch(`${api.base}${url}`, {
        method,
        headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      status = response.status;
      json = await response.json().catch(() => undefined);
      if (status < 500) break;
    } catch {
      status = 0; // connection refused or cut: that process is down
    }
    await new Promise((resolve) => setTimeout(resolve, 250 * (retries + 1)));
  }
  state.samples.push({
    kind,
    ms: performance.now() - started,
    status,
    chaos: chaos || state.chaos(),
    retries,
  });
  return { status, json };
}

/** One request of the mix (contacts created, searched, enrolled; the task list read). */
async function one(target: Target, state: LoadState, n: number): Promise<void> {
  const pick = n % 10;
  if (pick < 4) {
    const linkedin = `soak-${process.pid}-${n}`;
    const { status, json } = await call(target, state, 'contact_create', 'POST', '/leads/api/leads', {
      list_uuid: target.listUuid,
      leads: [{ first_name: `Soak${n}`, last_name: 'Load', linkedin_id: linkedin }],
    });
    const uuid = (json as Array<{ uuid?: string }> | undefined)?.[0]?.uuid;
    if (status === 200 && uuid) state.accepted.set(uuid, linkedin);
  } else if (pick < 7) {
    await call(target, state, 'contact_search', 'POST', '/leads/api/leads/search', {
      filter: { q: `soak${n % 50}` },
      limit: 20,
    });
  } else if (pick < 9) {
    // Taken at once, so concurrent requests enrol different contacts (given back if the request fails).
    const uuids = [...state.accepted.keys()].filter((uuid) => !state.enrolled.has(uuid)).slice(0, 5);
    if (uuids.length === 0) return;
    for (const uuid of uuids) state.enrolled.add(uuid);
    const { status } = await call(target, state, 'enroll', 'PUT', '/leads/api/leads/mass-action', {
      type: 'contact_add_to_flow',
      payload: { flow_uuid: target.flowUuid },
      filter: { ids: uuids },
    });
    if (status !== 200) for (const uuid of uuids) state.enrolled.delete(uuid);
  } else {
    await call(target, state, 'tasks_list', 'GET', '/flows/api/tasks?limit=20');
  }
}

/** Sends `rate` requests per second until `until`, each on its own (a slow one does not hold the rest). */
export async function runLoad(target: Target, state: LoadState, rate: number, until: number): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let n = 0;
  const interval = 1000 / rate;
  let next = performance.now();
  while (Date.now() < until) {
    const request = one(target, state, n++).finally(() => inFlight.delete(request));
    inFlight.add(request);
    next += interval;
    const wait = next - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  await Promise.all(inFlight);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
