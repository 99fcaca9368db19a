// The signed-in user, their teams and the session's CSRF token, read once and kept by TanStack Query.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api, call, currentTeam, setCsrfToken, setTeam } from './api';

export type Session = Awaited<ReturnType<typeof loadSession>>;
const TEAM_KEY = 'leadflow.team';

export function rememberTeam(teamId: number): void {
  localStorage.setItem(TEAM_KEY, String(teamId));
  setTeam(teamId);
}

/** Applies a session answer (sign-in, password link, invite, reload): CSRF token and chosen team. */
export function adoptSession<S extends { csrf_token: string; teams: { id: number }[] }>(session: S): S {
  setCsrfToken(session.csrf_token);
  const saved = Number(localStorage.getItem(TEAM_KEY));
  const team = session.teams.find((t) => t.id === saved) ?? session.teams[0];
  setTeam(team?.id);
  return session;
}

async function loadSession() {
  return adoptSession(await call(api.GET('/id/api/sessions/current')));
}

export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async () => {
    try {
      return await loadSession();
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return null;
      throw error;
    }
  },
  staleTime: Number.POSITIVE_INFINITY,
});

export function useSession() {
  const { data } = useQuery(sessionQuery);
  if (!data) throw new Error('useSession outside a signed-in page');
  const team = data.teams.find((t) => t.id === currentTeam()) ?? data.teams[0];
  return { ...data, team, isOwner: team?.role === 'owner' };
}
