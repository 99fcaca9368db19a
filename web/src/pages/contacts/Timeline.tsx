// A contact's or company's timeline (GET /leads/api/activities), newest first, each entry in words;
// everything a contact or a person wrote is shown as text.
import { Button, Timeline as MantineTimeline, Stack, Text } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api, call } from '../../api';
import { when } from '../../ui/format';
import { useLists, useStages, useTags } from '../../ui/useCatalogs';

const LABEL: Record<string, string> = {
  pipeline_stage_changed: 'Stage changed',
  linkedin_message_sent: 'LinkedIn message sent',
  linkedin_message_replied: 'Replied on LinkedIn',
  linkedin_connection_request_sent: 'Connection request sent',
  linkedin_connection_request_accepted: 'Connection request accepted',
  linkedin_inmail_sent: 'InMail sent',
  linkedin_inmail_replied: 'Replied to an InMail',
  email_sent: 'E-mail sent',
  email_replied: 'Replied by e-mail',
  email_opened: 'Opened an e-mail',
  email_clicked: 'Clicked a link in an e-mail',
  email_bounced: 'E-mail bounced',
  email_unsubscribed: 'Unsubscribed',
  contact_enriched: 'Filled from LinkedIn',
  list_changed: 'Moved to another list',
  tags_added: 'Tags added',
  tags_removed: 'Tags removed',
  flow_enrolled: 'Entered a flow',
  flow_finished: 'Finished a flow',
  flow_canceled: 'Taken out of a flow',
  flow_failed: 'Flow failed',
  note_added: 'Note',
};

const PAGE = 50;

export function Timeline(props: { filter: { lead_uuid: string } | { company_uuid: string } }) {
  const stages = useStages();
  const lists = useLists();
  const tags = useTags();
  const flows = useQuery({
    queryKey: ['flows', 'names'],
    queryFn: () => call(api.GET('/flows/api/flows', { params: { query: { limit: 1000 } } })),
  });
  const flowName = (uuid: unknown) => flows.data?.data.find((f) => f.uuid === uuid)?.name ?? 'a deleted flow';
  const activities = useInfiniteQuery({
    queryKey: ['activities', props.filter],
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/leads/api/activities', {
          params: {
            query: {
              limit: PAGE,
              offset: pageParam,
              order_field: 'created_at',
              order_type: 'desc',
              filter: JSON.stringify(props.filter) as never,
            },
          },
        }),
      ),
    getNextPageParam: (last, all) => (last.has_more ? all.length * PAGE : undefined),
  });

  function detail(type: string, p: Record<string, unknown>): string {
    const str = (v: unknown) =>
      typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
    const tagNames = (v: unknown) =>
      Array.isArray(v) ? v.map((u) => tags.byUuid.get(String(u))?.name ?? 'a deleted tag').join(', ') : '';
    switch (type) {
      case 'pipeline_stage_changed':
        return `${stages.byUuid.get(str(p.from))?.name ?? '—'} → ${stages.byUuid.get(str(p.to))?.name ?? '—'}`;
      case 'list_changed':
        return `${lists.byUuid.get(str(p.from))?.name ?? '—'} → ${lists.byUuid.get(str(p.to))?.name ?? '—'}`;
      case 'tags_added':
      case 'tags_removed':
        return tagNames(p.tag_uuids);
      case 'flow_enrolled':
      case 'flow_finished':
      case 'flow_canceled':
      case 'flow_failed':
        return `${flowName(p.flow_uuid)}${p.reason ? ` (${str(p.reason)})` : ''}`;
      case 'note_added':
        return str(p.note);
      default:
        return str(p.text ?? p.subject ?? p.note ?? (Object.keys(p).length ? p : ''));
    }
  }

  const items = activities.data?.pages.flatMap((page) => page.data) ?? [];
  if (activities.isSuccess && items.length === 0) {
    return <Text c="dimmed">Nothing happened yet. Messages, stage changes, flows and notes show here.</Text>;
  }
  return (
    <Stack gap="sm">
      <MantineTimeline bulletSize={12} lineWidth={2} aria-label="Timeline">
        {items.map((a) => (
          <MantineTimeline.Item key={a.uuid} title={LABEL[a.type] ?? a.type.replaceAll('_', ' ')}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {detail(a.type, a.payload)}
            </Text>
            <Text size="xs" c="dimmed">
              {when(a.created_at)}
            </Text>
          </MantineTimeline.Item>
        ))}
      </MantineTimeline>
      {activities.hasNextPage && (
        <Button
          variant="subtle"
          onClick={() => void activities.fetchNextPage()}
          loading={activities.isFetchingNextPage}
        >
          Older activity
        </Button>
      )}
    </Stack>
  );
}
