// Senders that cannot act now: LinkedIn seats that need a login or fail, mailboxes in error - each with
// what to do, linking to the page where it is done.
import { Alert, Anchor, List, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, call } from '../../api';

const SEAT_ISSUES: Record<string, string> = {
  login_issue: 'needs a login: send or open its login link',
  start_issue: 'cannot start: fix the reason, then run it again',
  running_issue: 'keeps failing: run it again',
};

export function SenderIssues() {
  const seats = useQuery({
    queryKey: ['seats'],
    queryFn: () => call(api.POST('/browsers/api/linkedin-browsers/list', { body: { limit: 1000 } })),
  });
  const mailboxes = useQuery({
    queryKey: ['mailboxes'],
    queryFn: () => call(api.GET('/emails/api/mailboxes', { params: { query: { limit: 1000 } } })),
  });
  if (!seats.data || !mailboxes.data) return <Text c="dimmed">Checking senders…</Text>;
  const issues = [
    ...seats.data.data
      .filter((seat) => SEAT_ISSUES[seat.status])
      .map((seat) => ({
        key: `seat-${seat.id}`,
        text: `LinkedIn seat ${seat.name ?? seat.id} ${SEAT_ISSUES[seat.status]}${seat.error_reason ? ` (${seat.error_reason})` : ''}`,
        to: '/senders/seats',
      })),
    ...mailboxes.data.data
      .filter((mailbox) => mailbox.status === 'error')
      .map((mailbox) => ({
        key: `mailbox-${mailbox.uuid}`,
        text: `Mailbox ${mailbox.email} is failing: check its errors and connect it again`,
        to: '/senders/mailboxes',
      })),
  ];
  if (issues.length === 0) {
    return <Text c="dimmed">No sender has an issue: every seat and mailbox can act.</Text>;
  }
  return (
    <Alert color="orange" title={`${issues.length} sender${issues.length === 1 ? '' : 's'} with issues`}>
      <List size="sm">
        {issues.map((issue) => (
          <List.Item key={issue.key}>
            <Anchor component={Link} to={issue.to} c="inherit" underline="always">
              {issue.text}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
