// Reply templates in the inbox: pick one of the team's message templates (LinkedIn) or e-mail templates,
// insert a variable, and see what will be sent - the text rendered for the conversation's contact and sender
// by POST /flows/api/ai-templates/render (Liquid, spintax with a fixed seed, so the sent text is the preview).
import { Alert, Group, Paper, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, messageOf } from '../../api';
import type { Conversation } from './inbox-types';

/** Whether a reply is a template (variables, tags or spintax) that must be rendered before it is sent. */
export const hasVariables = (text: string) => /\{\{|\{%/.test(text);

async function render(c: Conversation, body: string, seed: string) {
  if (!c.sender_profile_uuid) {
    throw new Error('This conversation has no sender profile, so its variables cannot be filled.');
  }
  return call(
    api.POST('/flows/api/ai-templates/render', {
      body: {
        lead_uuid: c.lead_uuid,
        sender_profile_uuid: c.sender_profile_uuid,
        type: c.channel === 'email' ? 'email' : 'message',
        body,
        seed,
      },
    }),
  );
}

/** The preview of `text` for the conversation, and the text to send (rendered the same way). */
export function useReplyPreview(c: Conversation, text: string) {
  const [seed] = useState(() => Math.random().toString(36).slice(2));
  const [debounced] = useDebouncedValue(text, 400);
  const preview = useQuery({
    queryKey: ['inbox', 'preview', c.lead_uuid, c.sender_profile_uuid, c.channel, seed, debounced],
    enabled: hasVariables(debounced),
    queryFn: () => render(c, debounced, seed),
    retry: false,
  });
  return {
    preview,
    /** What to send for `value`: itself, or its rendering when it holds variables. */
    async finalText(value: string) {
      if (!hasVariables(value)) return value;
      const answer = await render(c, value, seed);
      if (!answer.final_body?.trim()) throw new Error('The template renders no text for this contact.');
      return answer.final_body;
    },
  };
}

export function ReplyTemplates(props: {
  conversation: Conversation;
  text: string;
  onText: (text: string) => void;
}) {
  const type = props.conversation.channel === 'email' ? 'email' : 'message';
  const templates = useQuery({
    queryKey: ['inbox', 'templates'],
    queryFn: async () =>
      (await call(api.GET('/flows/api/ai-templates', { params: { query: { limit: 200 } } }))).data,
    staleTime: 60_000,
  });
  const variables = useQuery({
    queryKey: ['inbox', 'template-variables'],
    queryFn: () => call(api.GET('/flows/api/ai-templates/variables')),
    staleTime: 300_000,
  });
  const usable = (templates.data ?? []).filter((t) => t.type === type && t.body);

  return (
    <Group gap="xs" align="end" wrap="wrap">
      <Select
        label="Reply template"
        placeholder={usable.length === 0 ? 'No template of this kind' : 'Pick a template'}
        size="xs"
        w={220}
        maw="100%"
        searchable
        data={usable.map((t) => ({ value: t.uuid, label: t.name }))}
        value={null}
        onChange={(uuid) => {
          const template = usable.find((t) => t.uuid === uuid);
          if (template?.body) props.onText(template.body);
        }}
      />
      <Select
        label="Insert variable"
        placeholder="first_name, company…"
        size="xs"
        w={220}
        maw="100%"
        searchable
        data={(variables.data ?? []).map((v) => ({ value: v.name, label: `${v.name} (${v.description})` }))}
        value={null}
        onChange={(name) => {
          if (name) props.onText(`${props.text}{{${name}}}`);
        }}
      />
    </Group>
  );
}

/** What will be sent, rendered for the conversation's contact and sender (only for a reply with variables). */
export function ReplyPreview(props: {
  text: string;
  preview: ReturnType<typeof useReplyPreview>['preview'];
}) {
  const { preview } = props;
  if (!hasVariables(props.text)) return null;
  return (
    <Paper withBorder p="xs" role="region" aria-label="Preview of what will be sent">
      <Text size="xs" fw={600}>
        Preview of what will be sent
      </Text>
      {preview.isError ? (
        <Alert color="red" role="alert" p="xs">
          {messageOf(preview.error)}
        </Alert>
      ) : (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {preview.data ? (preview.data.final_body ?? '(nothing would be sent)') : 'Rendering…'}
        </Text>
      )}
      {preview.data?.handling_error && (
        <Text size="xs" c="red">
          {preview.data.handling_error}
        </Text>
      )}
    </Paper>
  );
}
