import { Alert, Center, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The centred card of the pages used before signing in. */
export function AuthFrame(props: { title: string; error?: string | undefined; children: ReactNode }) {
  return (
    <Center mih="100%" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={400} maw="100%">
        <Stack>
          <Title order={1} size="h2">
            {props.title}
          </Title>
          {props.error && (
            <Alert color="red" role="alert">
              {props.error}
            </Alert>
          )}
          {props.children}
        </Stack>
      </Paper>
    </Center>
  );
}

/** The token of a one-time link: after `#token=`, so it never reaches a server log. */
export function tokenFromHash(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}
