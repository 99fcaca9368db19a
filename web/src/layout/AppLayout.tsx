// The signed-in frame: navigation, team switcher, light/dark toggle and the user menu.
import {
  ActionIcon,
  AppShell,
  Burger,
  Group,
  Menu,
  NavLink,
  Select,
  Text,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { api, call, messageOf } from '../api';
import { rememberTeam, useSession } from '../session';

const NAV: { to: string; label: string }[] = [
  { to: '/contacts', label: 'Contacts' },
  { to: '/companies', label: 'Companies' },
  { to: '/pipeline', label: 'Pipeline' },
  { to: '/inbox', label: 'Inbox' },
  { to: '/tasks', label: 'Tasks' },
  { to: '/flows', label: 'Flows' },
  { to: '/analytics', label: 'Analytics' },
  { to: '/imports', label: 'Import CSV' },
  { to: '/senders', label: 'Senders' },
  { to: '/settings', label: 'Settings' },
];

export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure();
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');

  function switchTeam(value: string | null) {
    if (!value) return;
    rememberTeam(Number(value));
    // Everything cached belongs to the previous team.
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
    queryClient.setQueryData(['session'], { ...(queryClient.getQueryData(['session']) as object) });
    void navigate({ to: '/contacts' });
  }

  async function signOut(everywhere: boolean) {
    try {
      if (everywhere) await call(api.POST('/id/api/sessions/sign-out-everywhere'));
      else await call(api.DELETE('/id/api/sessions/current'));
    } catch (error) {
      notifications.show({ color: 'red', message: messageOf(error) });
      return;
    }
    queryClient.clear();
    queryClient.setQueryData(['session'], null);
    void navigate({ to: '/sign-in', search: { redirect: undefined } });
  }

  const userName =
    [session.user.first_name, session.user.last_name].filter(Boolean).join(' ') || session.user.email;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Text fw={700} size="lg">
              Leadflow
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {session.teams.length > 1 && (
              <Select
                aria-label="Team"
                size="xs"
                w={180}
                value={String(session.team?.id ?? '')}
                data={session.teams.map((t) => ({ value: String(t.id), label: t.name }))}
                onChange={switchTeam}
                allowDeselect={false}
              />
            )}
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={scheme === 'dark' ? 'Use light colours' : 'Use dark colours'}
              onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
            >
              {scheme === 'dark' ? '☀' : '☾'}
            </ActionIcon>
            <Menu position="bottom-end">
              <Menu.Target>
                <UnstyledButton aria-label={`Account menu of ${userName}`}>
                  <Text size="sm" truncate maw={160}>
                    {userName}
                  </Text>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{session.team?.name}</Menu.Label>
                <Menu.Item onClick={() => void signOut(false)}>Sign out</Menu.Item>
                <Menu.Item onClick={() => void signOut(true)}>Sign out everywhere</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        {NAV.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            active={pathname.startsWith(item.to)}
            variant="filled"
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
