// The flows section of the app: the list, the builder (its own chunk: React Flow and the layout load
// only when a flow is opened), a flow's enrollments, and the team's analytics.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { appRoute } from '../../router';
import { flowDetailQuery, nodeTypesQuery } from './builder/queries';

export function flowRoutes(parent: typeof appRoute) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/flows',
      component: lazyRouteComponent(() => import('./FlowsPage'), 'FlowsPage'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/flows/$flowUuid',
      // The flow and the node types are asked for while the builder's chunk loads, not after.
      loader: ({ context, params }) => {
        void context.queryClient.prefetchQuery(flowDetailQuery(params.flowUuid));
        void context.queryClient.prefetchQuery(nodeTypesQuery);
      },
      component: lazyRouteComponent(() => import('./builder/BuilderPage'), 'BuilderPage'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/flows/$flowUuid/contacts',
      component: lazyRouteComponent(() => import('./EnrollmentsPage'), 'EnrollmentsPage'),
    }),
  ] as const;
}
