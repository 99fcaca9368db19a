// The flows section of the app: the list, the builder (its own chunk: React Flow and the layout load
// only when a flow is opened), a flow's enrollments, and the team's analytics.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { appRoute } from '../../router';

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
      component: lazyRouteComponent(() => import('./builder/BuilderPage'), 'BuilderPage'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/flows/$flowUuid/contacts',
      component: lazyRouteComponent(() => import('./EnrollmentsPage'), 'EnrollmentsPage'),
    }),
  ] as const;
}
