import { Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { api, call, messageOf } from '../../api';
import { adoptSession } from '../../session';
import { AuthFrame } from './AuthFrame';

export function SignInPage() {
  const { redirect } = useSearch({ from: '/sign-in' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = adoptSession(await call(api.POST('/id/api/sessions', { body: { email, password } })));
      queryClient.setQueryData(['session'], session);
      await navigate({ to: redirect ?? '/contacts' });
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthFrame title="Sign in to Leadflow" error={error}>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" loading={busy}>
            Sign in
          </Button>
          <Text size="sm" c="dimmed">
            Forgot your password? An administrator runs{' '}
            <code>leadflow admin reset-password --email you@…</code> and gives you the link it prints.
          </Text>
        </Stack>
      </form>
    </AuthFrame>
  );
}
