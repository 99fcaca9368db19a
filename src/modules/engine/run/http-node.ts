// gs_call_api: a templated HTTP call to the team's own endpoint, through the same private-network
// guard, timeout and bounded response read as webhooks. At least once: a crash after the call and
// before the batch commits repeats it, so endpoints should be idempotent (the task uuid is sent as
// Idempotency-Key to help them).
import { InvalidTargetError, type WebhookClient } from '../../webhooks/webhook-client.js';
import type { NodeOf } from '../nodes/define.js';
import type { CallApiPayload } from '../nodes/http.js';
import type { Rendered } from '../render.js';
import type { TaskOutcome, Work } from './work.js';

type CallApiNode = NodeOf<CallApiPayload>;

export type HttpNodeDeps = {
  client: WebhookClient;
  /** Renders a template string for the work's contact and sender. */
  render(work: Work, template: string): Rendered;
  /** Waits between retries (the simulation passes a no-op). */
  sleep(ms: number): Promise<void>;
};

/** A payload text that cannot be rendered: the call is not made with it. */
class UnrenderedText extends Error {}

function renderAt(work: Work, deps: HttpNodeDeps, path: string, template: string): string {
  const rendered = deps.render(work, template);
  if (rendered.error !== undefined) throw new UnrenderedText(`${path}: ${rendered.error}`);
  return rendered.text ?? '';
}

function stringMap(
  field: string,
  value: Record<string, unknown> | undefined,
  work: Work,
  deps: HttpNodeDeps,
  dropEmpty: boolean,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, raw] of Object.entries(value ?? {})) {
    const rendered =
      raw === null || raw === undefined ? '' : renderAt(work, deps, `payload.${field}.${key}`, String(raw));
    if (dropEmpty && rendered === '') continue;
    out[key] = rendered;
  }
  return out;
}

export async function callApi(node: CallApiNode, work: Work, deps: HttpNodeDeps): Promise<TaskOutcome> {
  try {
    return await call(node, work, deps);
  } catch (error) {
    if (!(error instanceof UnrenderedText)) throw error;
    return { status: 'failed', automation_error_code: 'template_error', error_msg: error.message };
  }
}

async function call(node: CallApiNode, work: Work, deps: HttpNodeDeps): Promise<TaskOutcome> {
  const p = node.payload;
  const method = p.method;
  const dropEmpty = p.should_remove_empty_values === true;
  // Every text is rendered before anything goes out: one that cannot be rendered makes no call.
  const endpoint = renderAt(work, deps, 'payload.endpoint', p.endpoint);
  const query = stringMap('query', p.query, work, deps, dropEmpty);
  const body =
    method === 'GET' || method === 'DELETE'
      ? undefined
      : JSON.stringify(stringMap('post', p.post, work, deps, dropEmpty));
  const headers = {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    'idempotency-key': `${work.fl.uuid}:${work.fl.step}`,
    ...stringMap('headers', p.headers, work, deps, dropEmpty),
  };
  let url: URL;
  try {
    url = await deps.client.checkTarget(endpoint);
  } catch (error) {
    const message =
      error instanceof InvalidTargetError || error instanceof Error ? error.message : String(error);
    return { status: 'failed', automation_error_code: 'invalid_request', error_msg: message };
  }
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  const attempts = p.auto_retry_on_errors === true ? 3 : 1;
  let last = '';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const response = await deps.client.call({
      url: url.toString(),
      method,
      headers,
      body,
      maxBodyBytes: 4096,
    });
    if (!response.error) {
      return { status: 'closed', error_msg: `HTTP ${response.statusCode}: ${response.body.slice(0, 500)}` };
    }
    last = response.error;
    // A refused target or a client error will not get better by trying again.
    if (response.blocked || (response.statusCode !== null && response.statusCode < 500)) break;
    if (attempt < attempts) await deps.sleep(1000 * 3 ** (attempt - 1));
  }
  return { status: 'failed', automation_error_code: 'api_call_failed', error_msg: last.slice(0, 1000) };
}
