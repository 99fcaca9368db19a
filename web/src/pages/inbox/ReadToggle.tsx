// Read state of the open conversation: opening one marks what the contact sent in it read (once per
// opening); "Mark unread" makes its latest message from the contact unread again, "Mark read" undoes that.
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, call, messageOf } from '../../api';
import { type Conversation, conversationKey } from './inbox-types';

function useSetRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ c, read }: { c: Conversation; read: boolean }) =>
      call(
        api.PUT('/leads/api/inbox/read', {
          body: { channel: c.channel, uuid: c.uuid, lead_uuid: c.lead_uuid, read },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['inbox', 'list'] }),
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
}

/** Marks the conversation read when it is opened (the `opened` one: as it was when chosen). */
export function useMarkReadOnOpen(opened: Conversation | undefined) {
  const setRead = useSetRead();
  const key = opened ? conversationKey(opened) : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per opened conversation, not per answer
  useEffect(() => {
    if (opened && opened.unread_count > 0) setRead.mutate({ c: opened, read: true });
  }, [key]);
}

export function ReadToggle(props: { conversation: Conversation }) {
  const setRead = useSetRead();
  const unread = props.conversation.unread_count > 0;
  return (
    <Button
      size="xs"
      variant="default"
      loading={setRead.isPending}
      onClick={() => setRead.mutate({ c: props.conversation, read: unread })}
    >
      {unread ? 'Mark read' : 'Mark unread'}
    </Button>
  );
}
