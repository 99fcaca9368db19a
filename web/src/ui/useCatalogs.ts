// The team's tags, pipeline stages and lists, by uuid: names for what records only reference.
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api';

export function useTags() {
  const query = useQuery({
    queryKey: ['tags', 'all'],
    queryFn: () => call(api.GET('/leads/api/tags', { params: { query: { limit: 1000 } } })),
    staleTime: 60_000,
  });
  const tags = query.data?.data ?? [];
  return { tags, byUuid: new Map(tags.map((t) => [t.uuid, t])) };
}

export function useStages() {
  const query = useQuery({
    queryKey: ['pipeline-stages', 'all'],
    queryFn: () => call(api.GET('/leads/api/pipeline-stages', { params: { query: { limit: 1000 } } })),
    staleTime: 60_000,
  });
  const stages = query.data?.data ?? [];
  return { stages, byUuid: new Map(stages.map((s) => [s.uuid, s])) };
}

export function useLists() {
  const query = useQuery({
    queryKey: ['lists', 'all'],
    queryFn: () => call(api.GET('/leads/api/lists', { params: { query: { limit: 1000 } } })),
    staleTime: 60_000,
  });
  const lists = query.data?.data ?? [];
  return { lists, byUuid: new Map(lists.map((l) => [l.uuid, l])) };
}
