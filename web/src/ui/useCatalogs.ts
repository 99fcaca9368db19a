// The team's tags, pipeline stages and lists, by uuid: names for what records only reference. `enabled`
// false defers the call (a page that needs them only once a dialog opens keeps its first load short).
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api';

export function useTags(enabled = true) {
  const query = useQuery({
    enabled,
    queryKey: ['tags', 'all'],
    queryFn: () => call(api.GET('/leads/api/tags', { params: { query: { limit: 1000 } } })),
    staleTime: 60_000,
  });
  const tags = query.data?.data ?? [];
  return { tags, byUuid: new Map(tags.map((t) => [t.uuid, t])) };
}

export function useStages(enabled = true) {
  const query = useQuery({
    enabled,
    queryKey: ['pipeline-stages', 'all'],
    queryFn: () => call(api.GET('/leads/api/pipeline-stages', { params: { query: { limit: 1000 } } })),
    staleTime: 60_000,
  });
  const stages = query.data?.data ?? [];
  return { stages, byUuid: new Map(stages.map((s) => [s.uuid, s])) };
}

export function useLists(enabled = true) {
  const query = useQuery({
    enabled,
    queryKey: ['lists', 'all'],
    queryFn: () => call(api.GET('/leads/api/lists', { params: { query: { limit: 1000 } } })),
    staleTime: 60_000,
  });
  const lists = query.data?.data ?? [];
  return { lists, byUuid: new Map(lists.map((l) => [l.uuid, l])) };
}
