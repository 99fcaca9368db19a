// The senders section: profiles (week, limits), LinkedIn seats, mailboxes.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { appRoute } from '../../router';

export function senderRoutes(parent: typeof appRoute) {
  const layout = createRoute({
    getParentRoute: () => parent,
    path: '/senders',
    component: lazyRouteComponent(() => import('./SendersLayout'), 'SendersLayout'),
  });
  const child = (path: string, load: Parameters<typeof lazyRouteComponent>[0], name: string) =>
    createRoute({ getParentRoute: () => layout, path, component: lazyRouteComponent(load, name as never) });
  return layout.addChildren([
    child('/', () => import('./SenderProfilesPage'), 'SenderProfilesPage'),
    child('/seats', () => import('./SeatsPage'), 'SeatsPage'),
    child('/mailboxes', () => import('./MailboxesPage'), 'MailboxesPage'),
  ]);
}
