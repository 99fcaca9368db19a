import { Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call, messageOf } from '../../api';
import { adoptSession, rememberTeam } from '../../session';
import { AuthFrame, tokenFromHash } from './AuthFrame';

/** Accepting an invite link: a new user chooses a password, an existing one gives theirs. */
export function InvitePage() {
  const token = tokenFromHash();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invite = useQuery({
    queryKey: ['invite', token],
    queryFn: () => call(api.POST('/id/api/invites/lookup', { body: { token } })),
    enabled: token !== '',
  });
  const [firstName, setFirstName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [fieldError, setFieldError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setFieldError(undefined);
    try {
      const body = { token, password, ...(firstName ? { first_name: firstName } : {}) };
      const session = adoptSession(await call(api.POST('/id/api/invites/accept', { body })));
      const joined = session.teams[session.teams.length - 1];
      if (joined) rememberTeam(joined.id);
      queryClient.setQueryData(['session'], session);
      window.history.replaceState(null, '', '/invite');
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
      <AuthFrame title="Join a team">
        <Text>Open the invite link you were sent; it holds the invitation.</Text>
      </AuthFrame>
    );
  }
  if (invite.isError)
    return (
      <AuthFrame title="Join a team" error={messageOf(invite.error)}>
        {null}
      </AuthFrame>
    );
  if (!invite.data) return <AuthFrame title="Join a team">{<Text>Reading the invite…</Text>}</AuthFrame>;
  const { team_name, email, has_account } = invite.data;
  return (
    <AuthFrame title={`Join ${team_name}`} error={error}>
      <Text>
        You were invited as <b>{email}</b>.{' '}
        {has_account ? 'Give your Leadflow password to join.' : 'Choose a password to create your account.'}
      </Text>
      <form onSubmit={submit}>
        <Stack>
          {!has_account && (
            <TextInput
              label="First name"
              value={firstName}
              onChange={(e) => setFirstName(e.currentTarget.value)}
            />
          )}
          <PasswordInput
            label={has_account ? 'Your password' : 'New password'}
            description={has_account ? undefined : 'At least 10 characters'}
            autoComplete={has_account ? 'current-password' : 'new-password'}
            required
            value={password}
            error={fieldError}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" loading={busy}>
            Join {team_name}
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
