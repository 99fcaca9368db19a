// Connecting a Gmail or Outlook mailbox: pick the sender profile (and the address to preselect), then
// the provider's consent page opens in this tab; its answer comes back to Leadflow, which stores the
// mailbox and links back here.
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call } from '../../api';
import { fieldMessage } from '../../ui/field-error';
import { senderName, useSenders } from '../../ui/useSenders';

export type OAuthProvider = 'gmail' | 'outlook';
const NAMES: Record<OAuthProvider, { label: string; company: string }> = {
  gmail: { label: 'Gmail', company: 'Google' },
  outlook: { label: 'Outlook', company: 'Microsoft' },
};

export function ConnectOAuth(props: { provider: OAuthProvider | undefined; onClose: () => void }) {
  const { senders } = useSenders();
  const [sender, setSender] = useState<string | null>(null);
  const [hint, setHint] = useState('');
  const provider = props.provider ?? 'gmail';
  const start = useMutation({
    mutationFn: () =>
      call(
        api.GET('/emails/api/mailboxes/oauth/{provider}/start', {
          params: {
            path: { provider },
            query: { sender_profile_uuid: sender ?? '', ...(hint.trim() ? { login_hint: hint.trim() } : {}) },
          },
        }),
      ),
    onSuccess: ({ url }) => window.location.assign(url),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    start.mutate();
  }

  const senderError = fieldMessage(start.error, 'sender_profile_uuid');
  const hintError = fieldMessage(start.error, 'login_hint');
  const other = start.error && !senderError && !hintError ? start.error : undefined;
  return (
    <Modal
      opened={props.provider !== undefined}
      onClose={props.onClose}
      title={`Connect ${NAMES[provider].label}`}
    >
      <form onSubmit={submit}>
        <Stack>
          <Text size="sm">
            {NAMES[provider].company} asks you to sign in and allow Leadflow to send and read mail; then you
            come back here and the mailbox is listed.
          </Text>
          <Select
            label="Sender profile"
            required
            data={senders.map((s) => ({ value: s.uuid, label: senderName(s) }))}
            value={sender}
            onChange={setSender}
            error={senderError}
            searchable
          />
          <TextInput
            label="Address (optional)"
            description="Preselected on the sign-in page"
            value={hint}
            onChange={(e) => setHint(e.currentTarget.value)}
            error={hintError}
          />
          {other && (
            <Alert color="red" role="alert">
              {other instanceof ApiError && other.status === 422 && !other.fields.sender_profile_uuid
                ? `${other.message} Ask the operator to set up the ${NAMES[provider].label} OAuth app (see the README, "E-mail").`
                : other.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={start.isPending} disabled={!sender}>
              Continue to {NAMES[provider].company}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
