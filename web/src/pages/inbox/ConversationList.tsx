// The inbox's list: one row per conversation, unread ones first (as the API orders them), each with its
// contact, channel, sender and the start of its latest message; pages load on demand.
import { Badge, Button, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { InfiniteData } from '@tanstack/react-query';
import type { Contact } from '../contacts/contact';
import { contactName } from '../contacts/contact';
import { type Conversation, conversationKey } from './inbox-types';

export type InboxPage = {
  data: Conversation[];
  total: number;
  has_more: boolean;
  contacts: Map<string, Contact>;
};

export function ConversationList(props: {
  pages: InfiniteData<InboxPage> | undefined;
  selected: string | undefined;
  onSelect: (c: Conversation) => void;
  senderLabel: (uuid: string | null) => string;
  hasMore: boolean;
  loadingMore: boolean;
  onMore: () => void;
}) {
  const rows = props.pages?.pages.flatMap((p) =>
    p.data.map((c) => ({ c, contact: p.contacts.get(c.lead_uuid) })),
  );
  return (
    <Stack gap={0} component="ul" aria-label="Conversations" p={0} m={0}>
      {rows?.map(({ c, contact }) => {
        const key = conversationKey(c);
        const active = key === props.selected;
        const name = contact ? contactName(contact) : 'Deleted contact';
        return (
          <li key={key} style={{ listStyle: 'none' }}>
            <UnstyledButton
              w="100%"
              p="sm"
              aria-current={active ? 'true' : undefined}
              aria-label={`${name}, ${c.channel === 'email' ? 'e-mail' : 'LinkedIn'}${c.unread_count > 0 ? `, ${c.unread_count} unread` : ''}`}
              onClick={() => props.onSelect(c)}
              style={{
                borderBottom: '1px solid var(--mantine-color-default-border)',
                background: active ? 'var(--mantine-primary-color-light)' : undefined,
              }}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text fw={c.unread_count > 0 ? 700 : 500} truncate>
                  {name}
                </Text>
                <Group gap={4} wrap="nowrap">
                  {c.unread_count > 0 && <Badge color="red">{c.unread_count} new</Badge>}
                  <Badge color={c.channel === 'email' ? 'grape' : 'blue'}>
                    {c.channel === 'email' ? 'E-mail' : 'LinkedIn'}
                  </Badge>
                </Group>
              </Group>
              <Text size="sm" c="dimmed" truncate>
                {c.subject ? `${c.subject} · ` : ''}
                {c.last_message?.direction === 'outbox' ? 'You: ' : ''}
                {c.last_message?.snippet ?? ''}
              </Text>
              <Text size="xs" c="dimmed">
                {props.senderLabel(c.sender_profile_uuid)}
                {c.last_message_at ? ` · ${new Date(c.last_message_at).toLocaleString()}` : ''}
              </Text>
            </UnstyledButton>
          </li>
        );
      })}
      {props.hasMore && (
        <li style={{ listStyle: 'none' }}>
          <Button variant="subtle" fullWidth onClick={props.onMore} loading={props.loadingMore}>
            More conversations
          </Button>
        </li>
      )}
    </Stack>
  );
}
