import { Button, Group, Stack, Title } from '@mantine/core';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';

const SECTIONS = [
  { to: '/tasks', label: 'My day' },
  { to: '/tasks/list', label: 'All tasks' },
  { to: '/tasks/held', label: 'Held contacts' },
] as const;

export function TasksLayout() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <Stack>
      <Title order={1} size="h2">
        Tasks
      </Title>
      <Group gap="xs" component="nav" aria-label="Task views">
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
