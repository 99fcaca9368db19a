import { Button, Group, Stack, Title } from '@mantine/core';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';

const SECTIONS = [
  { to: '/settings/team', label: 'Team' },
  { to: '/settings/members', label: 'Members' },
  { to: '/settings/api-keys', label: 'API keys' },
  { to: '/settings/webhooks', label: 'Webhooks' },
  { to: '/settings/lists', label: 'Lists' },
  { to: '/settings/tags', label: 'Tags' },
  { to: '/settings/stages', label: 'Stages' },
  { to: '/settings/custom-fields', label: 'Custom fields' },
] as const;

export function SettingsLayout() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <Stack>
      <Title order={1} size="h2">
        Settings
      </Title>
      <Group gap="xs" component="nav" aria-label="Settings sections">
        {SECTIONS.map((section) => {
          const active = pathname.startsWith(section.to);
          return (
            <Button
              key={section.to}
              component={Link}
              to={section.to}
              variant={active ? 'filled' : 'default'}
              aria-current={active ? 'page' : undefined}
            >
              {section.label}
            </Button>
          );
        })}
      </Group>
      <Outlet />
    </Stack>
  );
}
