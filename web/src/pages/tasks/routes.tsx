// The tasks section: my day, every task, contacts held for a person.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { appRoute } from '../../router';

export function taskRoutes(parent: typeof appRoute) {
  const layout = createRoute({
    getParentRoute: () => parent,
    path: '/tasks',
    component: lazyRouteComponent(() => import('./TasksLayout'), 'TasksLayout'),
  });
  const child = (path: string, load: Parameters<typeof lazyRouteComponent>[0], name: string) =>
    createRoute({ getParentRoute: () => layout, path, component: lazyRouteComponent(load, name as never) });
  return layout.addChildren([
    child('/', () => import('./MyDayPage'), 'MyDayPage'),
    child('/list', () => import('./TaskListPage'), 'TaskListPage'),
    child('/held', () => import('./HeldPage'), 'HeldPage'),
  ]);
}
