// Routes of the app. Every page is its own chunk (lazyRouteComponent), so the first load carries only the
// shell; pages behind the app layout need a session and send to /sign-in without one.
import { Alert } from '@mantine/core';
import { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { ApiError } from './api';
import { AppLayout } from './layout/AppLayout';
import { analyticsRoutes } from './pages/analytics/routes';
import { prefetchFirstContacts } from './pages/contacts/contacts-query';
import { recordRoutes } from './pages/contacts/routes';
import { flowRoutes } from './pages/flows/routes';
import { inboxRoutes } from './pages/inbox/routes';
import { pipelineRoutes } from './pages/pipeline/routes';
import { senderRoutes } from './pages/senders/routes';
import { taskRoutes } from './pages/tasks/routes';
import { sessionQuery } from './session';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({ component: Outlet });

const redirectSearch = (search: Record<string, unknown>) => ({
  redirect:
    typeof search.redirect === 'string' && search.redirect.startsWith('/') ? search.redirect : undefined,
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  validateSearch: redirectSearch,
  component: lazyRouteComponent(() => import('./pages/auth/SignInPage'), 'SignInPage'),
});
const welcomeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/welcome',
  component: lazyRouteComponent(() => import('./pages/auth/SetPasswordPage'), 'SetPasswordPage'),
});
const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite',
  component: lazyRouteComponent(() => import('./pages/auth/InvitePage'), 'InvitePage'),
});

export const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    const session = await context.queryClient.ensureQueryData(sessionQuery);
    if (!session) throw redirect({ to: '/sign-in', search: { redirect: location.href } });
  },
  component: AppLayout,
});

/** A signed-in page, loaded as its own chunk. */
function page<P extends string>(path: P, component: Parameters<typeof lazyRouteComponent>[0], name: string) {
  return createRoute({
    getParentRoute: () => appRoute,
    path,
    component: lazyRouteComponent(component, name as never),
  });
}

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/contacts' });
  },
});

const settingsRoute = page('/settings', () => import('./pages/settings/SettingsLayout'), 'SettingsLayout');
function settingsPage<P extends string>(
  path: P,
  component: Parameters<typeof lazyRouteComponent>[0],
  name: string,
) {
  return createRoute({
    getParentRoute: () => settingsRoute,
    path,
    component: lazyRouteComponent(component, name as never),
  });
}

const routeTree = rootRoute.addChildren([
  signInRoute,
  welcomeRoute,
  inviteRoute,
  appRoute.addChildren([
    indexRoute,
    createRoute({
      getParentRoute: () => appRoute,
      path: '/contacts',
      // Not awaited: the first page is read while the page's chunk loads and renders.
      loader: ({ context }) => prefetchFirstContacts(context.queryClient),
      component: lazyRouteComponent(() => import('./pages/contacts/ContactsPage'), 'ContactsPage'),
    }),
    page('/companies', () => import('./pages/companies/CompaniesPage'), 'CompaniesPage'),
    page('/imports', () => import('./pages/imports/ImportPage'), 'ImportPage'),
    settingsRoute.addChildren([
      createRoute({
        getParentRoute: () => settingsRoute,
        path: '/',
        beforeLoad: () => {
          throw redirect({ to: '/settings/team' });
        },
      }),
      settingsPage('/team', () => import('./pages/settings/TeamPage'), 'TeamPage'),
      settingsPage('/members', () => import('./pages/settings/MembersPage'), 'MembersPage'),
      settingsPage('/api-keys', () => import('./pages/settings/ApiKeysPage'), 'ApiKeysPage'),
      settingsPage('/webhooks', () => import('./pages/settings/WebhooksPage'), 'WebhooksPage'),
      settingsPage('/lists', () => import('./pages/settings/CatalogPage'), 'ListsPage'),
      settingsPage('/tags', () => import('./pages/settings/CatalogPage'), 'TagsPage'),
      settingsPage('/stages', () => import('./pages/settings/CatalogPage'), 'StagesPage'),
      settingsPage('/custom-fields', () => import('./pages/settings/CatalogPage'), 'CustomFieldsPage'),
      settingsPage('/blacklist', () => import('./pages/settings/BlacklistPage'), 'BlacklistPage'),
    ]),
    ...flowRoutes(appRoute),
    taskRoutes(appRoute),
    inboxRoutes(appRoute),
    senderRoutes(appRoute),
    pipelineRoutes(appRoute),
    analyticsRoutes(appRoute),
    ...recordRoutes(appRoute),
  ]),
]);

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  defaultNotFoundComponent: () => <p>This page does not exist.</p>,
  defaultErrorComponent: ({ error }) => (
    <Alert color="red" role="alert" title="This page failed" m="md">
      {error instanceof Error ? error.message : String(error)}
    </Alert>
  ),
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
