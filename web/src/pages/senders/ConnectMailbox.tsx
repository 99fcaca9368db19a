// Connecting an SMTP/IMAP mailbox: the servers and logins, checked at once by the API; the outcome is
// told in words (both work, or which login failed and what the server said).
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api';
import { fieldMessage } from '../../ui/field-error';
import { senderName, useSenders } from '../../ui/useSenders';

const ERROR_WORDS: Record<string, string> = {
  auth: 'The login was refused',
  send: 'Sending (SMTP) failed',
  sync: 'Reading the inbox (IMAP) failed',
};

/** The outcome of a mailbox's connection check, as a sentence. */
export async function checkInWords(mailbox: {
  uuid: string;
  status: string;
  send_status: string;
  sync_status: string;
}) {
  if (mailbox.status !== 'error') {
    return {
      ok: true,
      text:
        mailbox.send_status === 'ok' && mailbox.sync_status === 'ok'
          ? 'Connected: sending (SMTP) and reading replies (IMAP) both work.'
          : 'Connected. The first send and inbox sync will confirm the servers.',
    };
  }
  const errors = await call(
    api.GET('/emails/api/mailbox-errors', {
      params: { query: { limit: 5, order_type: 'desc', filter: { mailbox_uuid: mailbox.uuid } } },
    }),
  );
  const lines = errors.data.map((e) => `${ERROR_WORDS[e.error_type] ?? e.error_type}: ${e.message}`);
  return { ok: false, text: lines.length ? lines.join(' ') : 'The mailbox could not connect.' };
}

type Form = Record<string, string | number | boolean | null>;
const EMPTY: Form = {
  email: '',
  sender_name: '',
  sender_profile_uuid: null,
  smtp_host: '',
  smtp_port: 587,
  smtp_secure: false,
  smtp_username: '',
  smtp_password: '',
  imap_host: '',
  imap_port: 993,
  imap_secure: true,
  imap_username: '',
  imap_password: '',
};

export function ConnectMailbox(props: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { senders } = useSenders();
  const [form, setForm] = useState<Form>(EMPTY);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
  const set = (key: string) => (value: unknown) => setForm((f) => ({ ...f, [key]: value as string }));
  const connect = useMutation({
    mutationFn: async () => {
      const settings = Object.fromEntries(
        Object.entries(form).filter(([k, v]) => /^(smtp|imap)_/.test(k) && v !== '' && v !== null),
      );
      const mailbox = await call(
        api.POST('/emails/api/mailboxes', {
          body: {
            email: String(form.email),
            sender_name: String(form.sender_name),
            sender_profile_uuid: String(form.sender_profile_uuid ?? ''),
            provider: 'smtp',
            connection_settings: settings,
          } as never,
        }),
      );
      return checkInWords(mailbox);
    },
    onSuccess: (result) => {
      setOutcome(result);
      void queryClient.invalidateQueries({ queryKey: ['mailboxes'] });
      void queryClient.invalidateQueries({ queryKey: ['mailbox-errors'] });
    },
  });
  const err = (field: string) => fieldMessage(connect.error, field);
  const close = () => {
    setOutcome(undefined);
    setForm(EMPTY);
    connect.reset();
    props.onClose();
  };
  const text = (key: string, label: string, extra: object = {}) => (
    <TextInput
      label={label}
      value={String(form[key] ?? '')}
      onChange={(e) => set(key)(e.currentTarget.value)}
      error={err(key)}
      {...extra}
    />
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    connect.mutate();
  }

  return (
    <Modal opened={props.opened} onClose={close} title="Connect a mailbox" size="lg">
      {outcome ? (
        <Stack>
          <Alert
            color={outcome.ok ? 'green' : 'red'}
            role="status"
            title={outcome.ok ? 'Mailbox connected' : 'The check failed'}
          >
            {outcome.text}
          </Alert>
          {!outcome.ok && (
            <Text size="sm">
              The mailbox is saved with status error: fix the settings on it, then activate it.
            </Text>
          )}
          <Button onClick={close}>Done</Button>
        </Stack>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {text('email', 'E-mail address', { required: true })}
              {text('sender_name', 'Sender name', { required: true })}
            </SimpleGrid>
            <Select
              label="Sender profile"
              required
              data={senders.map((s) => ({ value: s.uuid, label: senderName(s) }))}
              value={(form.sender_profile_uuid as string) ?? null}
              onChange={set('sender_profile_uuid')}
              error={err('sender_profile_uuid')}
            />
            {(['smtp', 'imap'] as const).map((kind) => (
              <Stack key={kind} gap="xs">
                <Title order={3} size="h5">
                  {kind === 'smtp' ? 'Sending (SMTP)' : 'Receiving (IMAP)'}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  {text(`${kind}_host`, `${kind.toUpperCase()} server`, { required: true })}
                  <NumberInput
                    label={`${kind.toUpperCase()} port`}
                    value={Number(form[`${kind}_port`])}
                    onChange={(v) => set(`${kind}_port`)(Number(v))}
                    error={err(`${kind}_port`)}
                  />
                  <Checkbox
                    mt={30}
                    label={`${kind.toUpperCase()} over TLS`}
                    checked={Boolean(form[`${kind}_secure`])}
                    onChange={(e) => set(`${kind}_secure`)(e.currentTarget.checked)}
                  />
                  {text(`${kind}_username`, `${kind.toUpperCase()} user name`, {
                    placeholder: 'the e-mail address',
                  })}
                  <PasswordInput
                    label={`${kind.toUpperCase()} password`}
                    required
                    value={String(form[`${kind}_password`] ?? '')}
                    onChange={(e) => set(`${kind}_password`)(e.currentTarget.value)}
                    error={err(`${kind}_password`)}
                  />
                </SimpleGrid>
              </Stack>
            ))}
            {connect.error && !Object.keys((connect.error as { fields?: object }).fields ?? {}).length && (
              <Alert color="red" role="alert">
                {connect.error.message}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={connect.isPending}>
                Connect and check
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
