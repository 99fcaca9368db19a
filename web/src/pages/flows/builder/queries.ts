// What the builder reads before it draws: the flow with its active version, and the node types'
// catalogue. Shared by the route's loader (asked for while the builder's chunk loads, or when a link
// to the flow is hovered) and the page.
import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../../../api';

export const flowDetailQuery = (flowUuid: string) =>
  queryOptions({
    queryKey: ['flows', 'detail', flowUuid],
    queryFn: () => call(api.GET('/flows/api/flows/{flowUuid}', { params: { path: { flowUuid } } })),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const nodeTypesQuery = queryOptions({
  queryKey: ['node-types'],
  queryFn: () => call(api.GET('/flows/api/flow-versions/node-types')),
  staleTime: Number.POSITIVE_INFINITY,
});
