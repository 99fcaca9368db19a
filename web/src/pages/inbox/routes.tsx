import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { appRoute } from '../../router';
import { prefetchInbox } from './inbox-query';

export function inboxRoutes(parent: typeof appRoute) {
  return createRoute({
    getParentRoute: () => parent,
    path: '/inbox',
    // Not awaited: the senders and the first page are read while the page's chunk loads and renders.
    loader: ({ context }) => {
      void prefetchInbox(context.queryClient).catch(() => {});
    },
    component: lazyRouteComponent(() => import('./InboxPage'), 'InboxPage'),
  });
}
