// The team dashboard: its own chunk (the charts load only there).
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { appRoute } from '../../router';

export function analyticsRoutes(parent: typeof appRoute) {
  return createRoute({
    getParentRoute: () => parent,
    path: '/analytics',
    component: lazyRouteComponent(() => import('./AnalyticsPage'), 'AnalyticsPage'),
  });
}
