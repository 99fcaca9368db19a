// Contact and company pages (the contacts and companies tables are registered in router.tsx).
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { appRoute } from '../../router';

export function recordRoutes(parent: typeof appRoute) {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: '/contacts/$uuid',
      component: lazyRouteComponent(() => import('./ContactPage'), 'ContactPage'),
    }),
    createRoute({
      getParentRoute: () => parent,
      path: '/companies/$uuid',
      component: lazyRouteComponent(() => import('./CompanyPage'), 'CompanyPage'),
    }),
  ] as const;
}
