import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { appRoute } from '../../router';

export function pipelineRoutes(parent: typeof appRoute) {
  return createRoute({
    getParentRoute: () => parent,
    path: '/pipeline',
    component: lazyRouteComponent(() => import('./PipelinePage'), 'PipelinePage'),
  });
}
