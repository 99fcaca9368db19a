// The flow's funnel drawn on its graph: per step the tasks by status and what followed (accepted,
// replied), per branch how many contacts took it - POST /flows/api/flows/{uuid}/statistics/nodes,
// refreshed every few seconds while shown, so a running flow's numbers fill in as you watch.
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { api, call } from '../../../api';
import type { Tree } from './tree';

export function useFunnel(flowUuid: string, tree: Tree, shown: boolean) {
  const ids = tree.nodes.map((n) => n.id);
  const stats = useQuery({
    queryKey: ['flows', 'funnel', flowUuid, ids.join(',')],
    enabled: shown && ids.length > 0,
    refetchInterval: shown ? 5000 : false,
    queryFn: () =>
      call(
        api.POST('/flows/api/flows/{flowUuid}/statistics/nodes', {
          params: { path: { flowUuid } },
          body: { node_ids: ids },
        }),
      ),
  });
  return useMemo(() => {
    const badges = new Map<number, ReactNode>();
    const edgeBadges = new Map<string, string>();
    if (!shown || !stats.data) return { badges, edgeBadges };
    for (const [id, s] of Object.entries(stats.data)) {
      const done = (s.node_statuses.closed ?? 0) + (s.node_statuses.skipped ?? 0);
      const parts = [`${done} done`];
      if (s.node_statuses.in_progress) parts.push(`${s.node_statuses.in_progress} waiting`);
      if (s.node_statuses.failed) parts.push(`${s.node_statuses.failed} failed`);
      if (s.node_conversions.accepted) parts.push(`${s.node_conversions.accepted} accepted`);
      if (s.node_conversions.replied) parts.push(`${s.node_conversions.replied} replied`);
      badges.set(Number(id), parts.join(' · '));
      for (const [branch, n] of Object.entries(s.node_branches)) edgeBadges.set(`${id}:${branch}`, `${n}`);
    }
    return { badges, edgeBadges };
  }, [shown, stats.data]);
}
