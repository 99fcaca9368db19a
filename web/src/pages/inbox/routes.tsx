import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { appRoute } from '../../router';

export function inboxRoutes(parent: typeof appRoute) {
  return createRoute({
    getParentRoute: () => parent,
    path: '/inbox',
    component: lazyRouteComponent(() => import('./InboxPage'), 'InboxPage'),
  });
}
