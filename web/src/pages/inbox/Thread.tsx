// One conversation: its messages oldest first (LinkedIn text and e-mail text as text, e-mail HTML in a
// sandboxed frame) and the reply box - a LinkedIn message through the sender's seat, or an e-mail
// answering the thread through its mailbox.
import { Alert, Badge, Button, Group, Paper, ScrollArea, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call } from '../../api';
import { when } from '../../ui/format';
import { EmailFrame } from './EmailFrame';
import { type Conversation, textToHtml } from './inbox-types';
import { ReplyPreview, ReplyTemplates, useReplyPreview } from './ReplyTemplates';

type Message = {
  uuid: string;
  direction: 'inbox' | 'outbox';
  at: string | null;
  from: string;
  subject?: string | null;
  text?: string | null;
  html?: string | null;
  status?: string;
};

const OUT_STATUS: Record<string, string> = {
  new: 'Queued',
  in_progress: 'Sending',
  done: 'Sent',
  failed: 'Failed',
};

async function loadLinkedIn(c: Conversation, name: string): Promise<Message[]> {
  const page = await call(
    api.GET('/flows/api/linkedin-messages', {
      params: {
        query: {
          limit: 200,
          order_field: 'created_at',
          order_type: 'desc',
          filter: JSON.stringify({
            lead_uuid: c.lead_uuid,
            sender_profile_uuid: c.sender_profile_uuid,
          }) as never,
        },
      },
    }),
  );
  return page.data.reverse().map((m) => ({
    uuid: m.uuid,
    direction: m.type,
    at: m.sent_at ?? m.created_at,
    from: m.type === 'inbox' ? name : 'You',
    subject: m.subject,
    text: m.text,
    status:
      m.type === 'outbox'
        ? `${OUT_STATUS[m.status] ?? m.status}${m.fail_reason ? `: ${m.fail_reason}` : ''}`
        : undefined,
  }));
}

async function loadEmail(c: Conversation): Promise<Message[]> {
  const thread = await call(
    api.GET('/emails/api/emails/{uuid}/thread', {
      params: { path: { uuid: c.last_message?.uuid ?? c.uuid } },
    }),
  );
  return thread.data.map((e) => ({
    uuid: e.uuid,
    direction: e.type,
    at: e.sent_at ?? e.created_at,
    from: e.from_name ? `${e.from_name} <${e.from_email ?? ''}>` : (e.from_email ?? ''),
    subject: e.subject,
    text: e.text_body,
    html: e.body,
    status: e.type === 'outbox' ? (e.error ? `${e.status}: ${e.error}` : e.status) : undefined,
  }));
}

export function Thread(props: { conversation: Conversation; contactName: string }) {
  const c = props.conversation;
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const composer = useReplyPreview(c, text);
  const messages = useQuery({
    queryKey: ['inbox', 'thread', c.channel, c.uuid, c.sender_profile_uuid, c.lead_uuid],
    queryFn: () => (c.channel === 'email' ? loadEmail(c) : loadLinkedIn(c, props.contactName)),
  });
  const reply = useMutation({
    mutationFn: async () => {
      const final = await composer.finalText(text);
      if (c.channel === 'linkedin') {
        await call(
          api.POST('/flows/api/linkedin-messages', {
            body: { sender_profile_uuid: c.sender_profile_uuid ?? '', lead_uuid: c.lead_uuid, text: final },
          }),
        );
      } else {
        const lastIn = [...(messages.data ?? [])].reverse().find((m) => m.direction === 'inbox');
        await call(
          api.POST('/emails/api/emails/send-email', {
            body: {
              ...(c.mailbox_uuid
                ? { mailbox_uuid: c.mailbox_uuid }
                : { sender_profile_uuid: c.sender_profile_uuid ?? '' }),
              lead_uuid: c.lead_uuid,
              ...(lastIn ? { in_reply_to_email_uuid: lastIn.uuid } : { thread_uuid: c.uuid }),
              body: textToHtml(final),
            },
          }),
        );
      }
    },
    onSuccess: () => {
      setText('');
      notifications.show({
        color: 'green',
        message:
          c.channel === 'linkedin'
            ? 'Message queued: the seat sends it in its next open window.'
            : 'E-mail sent.',
      });
      void queryClient.invalidateQueries({ queryKey: ['inbox'] });
    },
  });
  const error = reply.error;
  const fieldError =
    error instanceof ApiError ? (error.fields.text ?? error.fields.body)?.join(' ') : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (text.trim()) reply.mutate();
  }

  return (
    <Stack gap="sm" h="100%">
      <ScrollArea.Autosize mah="calc(100vh - 360px)" type="auto">
        <Stack gap="sm" component="ol" aria-label={`Messages with ${props.contactName}`} p={0} m={0}>
          {messages.isError && (
            <Alert color="red" role="alert">
              {messages.error.message}
            </Alert>
          )}
          {messages.data?.length === 0 && <Text>No message yet. Write the first one below.</Text>}
          {messages.data?.map((m) => (
            <Paper
              key={m.uuid}
              component="li"
              withBorder
              p="sm"
              ml={m.direction === 'outbox' ? 'xl' : 0}
              mr={m.direction === 'inbox' ? 'xl' : 0}
              style={{ listStyle: 'none' }}
              bg={m.direction === 'outbox' ? 'var(--mantine-primary-color-light)' : undefined}
            >
              <Group justify="space-between" gap="xs">
                <Text size="sm" fw={600}>
                  {m.from}
                </Text>
                <Group gap="xs">
                  {m.status && (
                    <Badge
                      color={m.status.startsWith('Failed') || m.status.startsWith('error') ? 'red' : 'gray'}
                    >
                      {m.status}
                    </Badge>
                  )}
                  <Text size="xs" c="dimmed">
                    {when(m.at)}
                  </Text>
                </Group>
              </Group>
              {m.subject && (
                <Text size="sm" fw={500}>
                  {m.subject}
                </Text>
              )}
              {m.html ? (
                <EmailFrame html={m.html} title={`E-mail from ${m.from}`} />
              ) : (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {m.text ?? ''}
                </Text>
              )}
            </Paper>
          ))}
        </Stack>
      </ScrollArea.Autosize>
      <form onSubmit={submit}>
        <Stack gap="xs">
          <ReplyTemplates conversation={c} text={text} onText={setText} />
          <Textarea
            label={c.channel === 'linkedin' ? 'Reply on LinkedIn' : 'Reply by e-mail'}
            autosize
            minRows={3}
            maxRows={8}
            value={text}
            error={fieldError}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) submit(e);
            }}
          />
          <ReplyPreview text={text} preview={composer.preview} />
          {error && !fieldError && (
            <Alert color="red" role="alert">
              {error.message}
            </Alert>
          )}
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              Ctrl+Enter sends
            </Text>
            <Button type="submit" loading={reply.isPending} disabled={!text.trim()}>
              {c.channel === 'linkedin' ? 'Send LinkedIn message' : 'Send e-mail'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
