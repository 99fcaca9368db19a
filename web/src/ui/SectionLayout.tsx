import { Button, Group, Stack, Title } from '@mantine/core';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';

export type Section = { readonly to: string; readonly label: string };

/** A page title, its views as buttons (the current one marked), and the view below. */
export function SectionLayout(props: { title: string; navLabel: string; sections: readonly Section[] }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <Stack>
      <Title order={1} size="h2">
        {props.title}
      </Title>
      <Group gap="xs" component="nav" aria-label={props.navLabel}>
        {props.sections.map((section) => {
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
