import { Button, Group, Stack, Title } from '@mantine/core';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';

const SECTIONS = [
  { to: '/senders', label: 'Sender profiles' },
  { to: '/senders/seats', label: 'LinkedIn seats' },
  { to: '/senders/mailboxes', label: 'Mailboxes' },
] as const;

export function SendersLayout() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <Stack>
      <Title order={1} size="h2">
        Senders
      </Title>
      <Group gap="xs" component="nav" aria-label="Sender sections">
        {SECTIONS.map((section) => {
          const active = pathname.replace(/\/$/, '') === section.to;
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
