// The one way the app talks to the API: the typed SDK generated from Leadflow's OpenAPI document, with the
// session's CSRF token and the chosen team added to every request. The browser never holds an API key.
import { type ApiErrorBody, createLeadflowClient, fieldErrors } from '@leadflow/sdk';

const state: { csrfToken: string; teamId: number | undefined; onSignedOut: () => void } = {
  csrfToken: '',
  teamId: undefined,
  onSignedOut: () => {},
};

export function setCsrfToken(token: string): void {
  state.csrfToken = token;
}
export function setTeam(teamId: number | undefined): void {
  state.teamId = teamId;
}
export function currentTeam(): number | undefined {
  return state.teamId;
}
export function onSignedOut(handler: () => void): void {
  state.onSignedOut = handler;
}

export const api = createLeadflowClient({ baseUrl: window.location.origin });
api.use({
  onRequest({ request }) {
    if (!['GET', 'HEAD'].includes(request.method)) request.headers.set('x-csrf-token', state.csrfToken);
    if (state.teamId !== undefined) request.headers.set('team-id', String(state.teamId));
    return request;
  },
  onResponse({ response, request }) {
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/id/api/sessions')) {
      state.onSignedOut();
    }
    return response;
  },
});

/** An answer of the API that is not a success: its message, and its messages per field. */
export class ApiError extends Error {
  readonly status: number;
  readonly reason: string;
  readonly fields: Record<string, string[]>;
  constructor(status: number, body: unknown) {
    const typed = body as Partial<ApiErrorBody> | undefined;
    super(typed?.message ?? typed?.error?.message ?? `The server answered ${status}.`);
    this.status = status;
    this.reason = typed?.error?.reason ?? 'unknown';
    this.fields = fieldErrors(body);
  }
}

/** The data of an SDK call, or an ApiError (for TanStack Query, which expects a throw). */
export async function call<T>(
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await request;
  if (error !== undefined || !response.ok) throw new ApiError(response.status, error);
  return data as T;
}

/** The message of any error, for a notification or an alert. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
