import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app.css';
import {
  Badge,
  type CSSVariablesResolver,
  createTheme,
  Drawer,
  localStorageColorSchemeManager,
  MantineProvider,
  Modal,
  Notification,
} from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { onSignedOut } from './api';
import { queryClient, router } from './router';
import { sessionQuery } from './session';

// What the first page needs starts now rather than once React and the router get to it: the session
// (the signed-in check awaits the same query) and the page's own chunk.
void queryClient.prefetchQuery(sessionQuery);
for (const route of router.getMatchedRoutes(window.location.pathname)[0]) {
  router.loadRouteChunk(route)?.catch(() => {});
}

// Shade 8 keeps white text on filled buttons above 4.5:1 (WCAG AA) in both colour schemes.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  // Close buttons of notifications and dialogs have no text: name them for screen readers.
  components: {
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
    }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close panel' } } }),
    // Badge colours tint the background; the text keeps the body colour, so it reads in every colour (AA).
    Badge: Badge.extend({
      defaultProps: { variant: 'light' },
      styles: { label: { color: 'var(--mantine-color-text)' } },
    }),
  },
});
// Text of light variants (badges, alerts, light buttons) is shade 6 by default: below 4.5:1 on its
// tinted background. A darker mix keeps every colour readable (WCAG AA) in the light scheme.
const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: Object.fromEntries(
    Object.keys(t.colors).map((c) => [
      `--mantine-color-${c}-light-color`,
      `color-mix(in srgb, var(--mantine-color-${c}-9) 70%, black)`,
    ]),
  ),
  dark: {},
});
const colorSchemeManager = localStorageColorSchemeManager({ key: 'leadflow.color-scheme' });

onSignedOut(() => {
  queryClient.setQueryData(['session'], null);
  if (!window.location.pathname.startsWith('/sign-in')) {
    void router.navigate({ to: '/sign-in', search: { redirect: window.location.pathname } });
  }
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
    >
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
