// The Leadflow API as a typed client: every path, parameter, body and answer comes from the OpenAPI
// document the service serves (src/openapi.ts is generated from it by `npm run sdk:generate`).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './openapi.js';

export type { components, operations, paths };
export type LeadflowClient = Client<paths>;

/** Every error the API answers has this shape (the document's Error schema). */
export type ApiErrorBody = {
  error: { reason: string; message: string; data: Record<string, unknown> };
  message: string;
  code: number;
};

export type LeadflowClientOptions = ClientOptions & {
  /** An API key (`lf_...`); leave it out in a browser signed in with a session cookie. */
  apiKey?: string;
  /** The team to act in (the Team-ID header); your first team when left out. */
  teamId?: number;
};

export function createLeadflowClient(options: LeadflowClientOptions = {}): LeadflowClient {
  const { apiKey, teamId, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    headers: {
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      ...(teamId ? { 'team-id': String(teamId) } : {}),
      ...(headers as Record<string, string> | undefined),
    },
  });
}

/** The field messages of a validation error (`error.data`), by field path. */
export function fieldErrors(body: unknown): Record<string, string[]> {
  const data = (body as Partial<ApiErrorBody> | undefined)?.error?.data ?? {};
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(data)) {
    out[field] = Array.isArray(messages) ? messages.map(String) : [String(messages)];
  }
  return out;
}
