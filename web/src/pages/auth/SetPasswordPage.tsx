import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call, messageOf } from '../../api';
import { adoptSession } from '../../session';
import { AuthFrame, tokenFromHash } from './AuthFrame';

/** The page of a one-time password link (first start, `leadflow admin reset-password`). */
export function SetPasswordPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string>();
  const [fieldError, setFieldError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const token = tokenFromHash();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setFieldError(undefined);
    if (password !== repeat) {
      setFieldError('The two passwords differ.');
      return;
    }
    setBusy(true);
    try {
      const session = adoptSession(
        await call(api.POST('/id/api/password-links/redeem', { body: { token, password } })),
      );
      queryClient.setQueryData(['session'], session);
      window.history.replaceState(null, '', '/welcome');
      await navigate({ to: '/contacts' });
    } catch (failure) {
      if (failure instanceof ApiError && failure.fields.password)
        setFieldError(failure.fields.password.join(' '));
      else setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  if (!token) {
    return (
      <AuthFrame title="Set your password">
        <Text>
          This page needs the one-time link printed by the first start of Leadflow or by{' '}
          <code>leadflow admin reset-password --email you@…</code>. Open that link.
        </Text>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Set your password" error={error}>
      <form onSubmit={submit}>
        <Stack>
          <PasswordInput
            label="New password"
            description="At least 10 characters"
            autoComplete="new-password"
            required
            value={password}
            error={fieldError}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <PasswordInput
            label="Repeat the password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.currentTarget.value)}
          />
          <Button type="submit" loading={busy}>
            Set password and sign in
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
