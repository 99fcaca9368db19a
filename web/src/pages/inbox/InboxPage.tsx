// The inbox: every conversation of my senders (or the team's) across LinkedIn and e-mail, unread first;
// the thread of the one chosen with the reply box, and its contact beside it. On a phone the list and
// the thread take the screen in turn.
import { Alert, Box, Button, Grid, Group, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSession } from '../../session';
import { senderName, useSenders } from '../../ui/useSenders';
import { useStoredState } from '../../ui/useStoredState';
import { contactName } from '../contacts/contact';
import { ContactPanel } from './ContactPanel';
import { ConversationList } from './ConversationList';
import { type Channel, inboxFilter, inboxQuery } from './inbox-query';
import { type Conversation, conversationKey } from './inbox-types';
import { ReadToggle, useMarkReadOnOpen } from './ReadToggle';
import { Thread } from './Thread';

export function InboxPage() {
  const session = useSession();
  const phone = useMediaQuery('(max-width: 48em)');
  const [everyone, setEveryone] = useStoredState('inbox.everyone', false);
  const [channel, setChannel] = useStoredState<Channel>('inbox.channel', 'all');
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [selected, setSelected] = useState<Conversation>();
  const { senders, byUuid, query: sendersQuery } = useSenders();
  const mine = senders.filter((s) => s.assignee_user_id === session.user.id).map((s) => s.uuid);

  const query = inboxFilter({ channel, everyone, mine, unreadOnly });
  const conversations = useInfiniteQuery({
    ...inboxQuery(query),
    enabled: sendersQuery.isSuccess && (everyone || mine.length > 0),
  });
  const pages = conversations.data?.pages ?? [];
  const contacts = new Map(pages.flatMap((p) => [...p.contacts]));
  // The chosen conversation as the latest answer has it (unread counts change after mark read).
  const current = selected
    ? (pages.flatMap((p) => p.data).find((c) => conversationKey(c) === conversationKey(selected)) ?? selected)
    : undefined;
  const contact = current ? contacts.get(current.lead_uuid) : undefined;
  useMarkReadOnOpen(selected);
  const senderLabel = (uuid: string | null) => {
    const s = uuid ? byUuid.get(uuid) : undefined;
    return s ? senderName(s) : '';
  };
  const total = pages[0]?.total;
  const noSenders = sendersQuery.isSuccess && !everyone && mine.length === 0;

  const list = (
    <Stack gap="xs">
      <Group gap="xs">
        <SegmentedControl
          size="xs"
          aria-label="Channel"
          value={channel}
          onChange={(v) => setChannel(v as typeof channel)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'linkedin', label: 'LinkedIn' },
            { value: 'email', label: 'E-mail' },
          ]}
        />
        <Switch
          size="xs"
          label="Unread only"
          checked={unreadOnly}
          onChange={(e) => setUnreadOnly(e.currentTarget.checked)}
        />
        <Switch
          size="xs"
          label="The whole team’s"
          checked={everyone}
          onChange={(e) => setEveryone(e.currentTarget.checked)}
        />
      </Group>
      {conversations.isError && (
        <Alert color="red" role="alert">
          {conversations.error.message}
        </Alert>
      )}
      {noSenders && (
        <Text>
          No sender profile is assigned to you. Show the whole team’s conversations, or assign yourself a
          profile under Senders.
        </Text>
      )}
      {total === 0 && (
        <Text>
          {unreadOnly
            ? 'Nothing unread. Switch off “Unread only” to see every conversation.'
            : 'No conversation yet. Replies to your LinkedIn messages and e-mails show here once a seat or mailbox is connected.'}
        </Text>
      )}
      <Box style={{ overflow: 'auto' }} mah={phone ? undefined : 'calc(100vh - 200px)'}>
        <ConversationList
          pages={conversations.data}
          selected={current ? conversationKey(current) : undefined}
          onSelect={setSelected}
          senderLabel={senderLabel}
          hasMore={conversations.hasNextPage}
          loadingMore={conversations.isFetchingNextPage}
          onMore={() => void conversations.fetchNextPage()}
        />
      </Box>
    </Stack>
  );
  const name = contact ? contactName(contact) : 'Deleted contact';
  const thread = current && (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {name} · {current.channel === 'email' ? (current.subject ?? 'E-mail') : 'LinkedIn'}
        </Title>
        <Group gap="xs">
          <ReadToggle conversation={current} />
          {phone && (
            <Button size="xs" variant="default" onClick={() => setSelected(undefined)}>
              Back to conversations
            </Button>
          )}
        </Group>
      </Group>
      <Thread key={conversationKey(current)} conversation={current} contactName={name} />
    </Stack>
  );

  return (
    <Stack gap="sm">
      <Title order={1} size="h2">
        Inbox{total ? ` (${total})` : ''}
      </Title>
      {phone ? (
        current ? (
          <Stack>
            {thread}
            <ContactPanel contact={contact} leadUuid={current.lead_uuid} />
          </Stack>
        ) : (
          list
        )
      ) : (
        <Grid>
          <Grid.Col span={4}>{list}</Grid.Col>
          <Grid.Col span={5}>
            {thread ?? <Text c="dimmed">Choose a conversation to read it and reply.</Text>}
          </Grid.Col>
          <Grid.Col span={3}>
            {current && <ContactPanel contact={contact} leadUuid={current.lead_uuid} />}
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
