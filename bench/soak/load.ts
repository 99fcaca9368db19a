// The soak's clients: a mixed load at a fixed rate spread over the API processes. Clients retry what is
// safe to retry (contacts, enrollments and imports are idempotent by a natural key: a contact's LinkedIn
// id, an enrollment's contact and flow), so a request cut by a crash is repeated, not lost or doubled. A
// hand-queued LinkedIn message has no natural key: it is retried only when no process took the
// connection, so a message the API stored is never queued twice by the client.
import type { LeadflowProcess } from './processes.js';

export const KINDS = [
  'contact_create',
  'contact_search',
  'enroll',
  'tasks_list',
  'linkedin_note',
  'csv_import',
] as const;
export type Kind = (typeof KINDS)[number];

export type Sample = {
  kind: Kind;
  ms: number;
  status: number;
  chaos: boolean;
  retries: number;
  /** The last failure without a response: refused, timeout, or the error's code. */
  error?: string;
};

export type LoadState = {
  samples: Sample[];
  /** Contacts the API accepted (uuid → the LinkedIn id sent). */
  accepted: Map<string, string>;
  /** Contacts accepted into the flow. */
  enrolled: Set<string>;
  /** Contacts sent a hand-queued connection note (never enrolled), and the messages the API stored. */
  noted: Set<string>;
  messages: string[];
  /** Notes whose request was cut after a process took it: the checks look them up, as a client would. */
  unsure: Array<{ lead: string; text: string }>;
  /** Imports the API started (file-import uuid → the LinkedIn ids of its rows). */
  imports: Map<string, string[]>;
  /** Set while a process is down or the database restarts (latency is reported apart). */
  chaos: () => boolean;
};

type Target = {
  apis: LeadflowProcess[];
  apiKey: string;
  listUuid: string;
  flowUuid: string;
  senderUuid: string;
};

const RETRIES = 8;

/** Retry on any failure (idempotent requests), or only when the connection was refused. */
type RetryWhen = 'failed' | 'refused';

async function call(
  target: Target,
  state: LoadState,
  kind: Kind,
  method: string,
  url: string,
  body?: unknown,
  retryWhen: RetryWhen = 'failed',
): Promise<{ status: number; json: unknown }> {
  const started = performance.now();
  const chaos = state.chaos();
  let status = 0;
  let json: unknown;
  let retries = 0;
  let failure: string | undefined;
  // A random process first, the next one after each failure (as a load balancer that skips a process
  // whose port refuses would).
  const first = Math.floor(Math.random() * target.apis.length);
  for (; retries <= RETRIES; retries += 1) {
    const api = target.apis[(first + retries) % target.apis.length]!;
    let refused = false;
    try {
      const response = await fetch(`${api.base}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${target.apiKey}`,
          ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined || body instanceof FormData ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      status = response.status;
      json = await response.json().catch(() => undefined);
      if (status < 500) break;
    } catch (error) {
      status = 0; // connection refused or cut: that process is down
      const code = (error as { cause?: { code?: string } }).cause?.code;
      refused = code === 'ECONNREFUSED';
      failure = (error as Error).name === 'TimeoutError' ? 'timeout' : (code ?? (error as Error).name);
    }
    if (retryWhen === 'refused' && !refused) break;
    await new Promise((resolve) => setTimeout(resolve, 250 * (retries + 1)));
  }
  state.samples.push({
    kind,
    ms: performance.now() - started,
    status,
    chaos: chaos || state.chaos(),
    retries,
    ...(status === 0 ? { error: failure } : {}),
  });
  return { status, json };
}

/** Contacts accepted and not yet enrolled or noted, taken at once (given back if the request fails). */
function takeFree(state: LoadState, count: number): string[] {
  const uuids = [...state.accepted.keys()]
    .filter((uuid) => !state.enrolled.has(uuid) && !state.noted.has(uuid))
    .slice(0, count);
  return uuids;
}

/** One request of the mix, by n % 20: create 7, search 4, enroll 4, tasks 2, LinkedIn note 2, import 1. */
async function one(target: Target, state: LoadState, n: number): Promise<void> {
  const pick = n % 20;
  if (pick < 7) {
    const linkedin = `soak-${process.pid}-${n}`;
    const { status, json } = await call(target, state, 'contact_create', 'POST', '/leads/api/leads', {
      list_uuid: target.listUuid,
      leads: [{ first_name: `Soak${n}`, last_name: 'Load', linkedin_id: linkedin }],
    });
    const uuid = (json as Array<{ uuid?: string }> | undefined)?.[0]?.uuid;
    if (status === 200 && uuid) state.accepted.set(uuid, linkedin);
  } else if (pick < 11) {
    await call(target, state, 'contact_search', 'POST', '/leads/api/leads/search', {
      filter: { q: `soak${n % 50}` },
      limit: 20,
    });
  } else if (pick < 15) {
    const uuids = takeFree(state, 5);
    if (uuids.length === 0) return;
    for (const uuid of uuids) state.enrolled.add(uuid);
    const { status } = await call(target, state, 'enroll', 'PUT', '/leads/api/leads/mass-action', {
      type: 'contact_add_to_flow',
      payload: { flow_uuid: target.flowUuid },
      filter: { ids: uuids },
    });
    if (status !== 200) for (const uuid of uuids) state.enrolled.delete(uuid);
  } else if (pick < 17) {
    await call(target, state, 'tasks_list', 'GET', '/flows/api/tasks?limit=20');
  } else if (pick < 19) {
    const [uuid] = takeFree(state, 1);
    if (!uuid) return;
    state.noted.add(uuid);
    const text = `Hello from the soak, ${n}`;
    const { status, json } = await call(
      target,
      state,
      'linkedin_note',
      'POST',
      '/flows/api/linkedin-messages',
      {
        sender_profile_uuid: target.senderUuid,
        lead_uuid: uuid,
        linkedin_type: 'connection_note',
        text,
      },
      'refused',
    );
    const message = (json as { uuid?: string } | undefined)?.uuid;
    if (status < 300 && message) state.messages.push(message);
    else if (status === 0 || status >= 500) state.unsure.push({ lead: uuid, text });
  } else {
    const ids = Array.from({ length: 5 }, (_, i) => `soak-import-${process.pid}-${n}-${i}`);
    const form = new FormData();
    const csv = ['first_name,last_name,linkedin_id', ...ids.map((id, i) => `Imported${i},Row,${id}`)];
    form.append('file', new Blob([`${csv.join('\n')}\n`], { type: 'text/csv' }), `soak-${n}.csv`);
    const upload = await call(
      target,
      state,
      'csv_import',
      'POST',
      '/leads/api/file-imports/upload-csv',
      form,
    );
    const file = (upload.json as { uuid?: string } | undefined)?.uuid;
    if (upload.status !== 200 || !file) return;
    const started = await call(
      target,
      state,
      'csv_import',
      'POST',
      `/leads/api/file-imports/${file}/import-leads`,
      {
        list_uuid: target.listUuid,
        column_mapping: { first_name: 'first_name', last_name: 'last_name', linkedin_id: 'linkedin_id' },
      },
    );
    // 409: a retried start found the first one running - it was accepted.
    if (started.status === 200 || started.status === 409) state.imports.set(file, ids);
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
