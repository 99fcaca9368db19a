// The team dashboard (/analytics): over a chosen period, actions per day per channel and per action type
// against the senders' summed limits, acceptance and reply rates over time, the same per sender, flow or
// contact source, replies waiting, senders with issues and credits. Numbers from
// POST /flows/api/statistics/team (counters and index ranges, no scans); every chart has its table and CSV.
import { BarChart, CompositeChart, LineChart } from '@mantine/charts';
import {
  Anchor,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api';
import { useSession } from '../../session';
import { ChartOrTable, type Column } from '../../ui/ChartOrTable';
import { percent } from '../flows/rates';
import {
  ACTION_LABELS,
  type DayRow,
  dayRows,
  type GroupBy,
  type GroupRow,
  groupRows,
  periodTotals,
  type SenderRow,
  senderRows,
} from './analytics-data';
import { SenderIssues } from './SenderIssues';

const pct = (value: unknown) => (value === null || value === undefined ? '–' : `${value} %`);
const DAY_COLUMNS: Column<DayRow>[] = [
  { key: 'date', label: 'Day' },
  { key: 'linkedin', label: 'LinkedIn actions' },
  { key: 'email', label: 'E-mails' },
  { key: 'actions', label: 'Actions of the type' },
  { key: 'limit', label: 'Daily limit (enabled senders)' },
  { key: 'sent', label: 'Sent (requests and messages)' },
  { key: 'accepted', label: 'Accepted' },
  { key: 'replied', label: 'Replied' },
  { key: 'acceptance', label: 'Acceptance', format: pct },
  { key: 'reply', label: 'Reply rate', format: pct },
];
const GROUP_COLUMNS: Column<GroupRow>[] = [
  { key: 'name', label: 'Name' },
  { key: 'invitations', label: 'Requests sent' },
  { key: 'accepted', label: 'Accepted' },
  { key: 'acceptance', label: 'Acceptance', format: pct },
  { key: 'messages', label: 'Messages sent' },
  { key: 'replied', label: 'Replied' },
  { key: 'reply', label: 'Reply rate', format: pct },
];
const SENDER_COLUMNS: Column<SenderRow>[] = [
  { key: 'name', label: 'Sender' },
  { key: 'status', label: 'Status' },
  { key: 'actions', label: 'Actions' },
  { key: 'limit', label: 'Limits of those types' },
  { key: 'used', label: 'Busiest type: share of its limit', format: pct },
];

function isoDay(date: Date) {
  return date.toISOString().slice(0, 10);
}

function Figure({ label, value, children }: { label: string; value: string; children?: React.ReactNode }) {
  return (
    <Paper withBorder p="sm" role="group" aria-label={label}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
      {children}
    </Paper>
  );
}

export function AnalyticsPage() {
  const session = useSession();
  const [days, setDays] = useState('30');
  const [groupBy, setGroupBy] = useState<GroupBy>('sender');
  const [flow, setFlow] = useState<string | null>(null);
  const [type, setType] = useState('linkedin_send_connection_request');
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const to = isoDay(new Date());
  const from = isoDay(new Date(Date.now() - (Number(days) - 1) * 86_400_000));

  const flows = useQuery({
    queryKey: ['flows', 'names'],
    queryFn: () => call(api.GET('/flows/api/flows', { params: { query: { limit: 1000 } } })),
  });
  const stats = useQuery({
    queryKey: ['team-statistics', from, to, groupBy, flow, zone],
    queryFn: () =>
      call(
        api.POST('/flows/api/statistics/team', {
          body: { from, to, time_zone: zone, group_by: groupBy, ...(flow ? { flow_uuids: [flow] } : {}) },
        }),
      ),
    refetchInterval: 60_000,
  });
  const waiting = useQuery({
    queryKey: ['inbox', 'unread-total'],
    queryFn: () => call(api.GET('/leads/api/inbox', { params: { query: { unread: true, limit: 1 } } })),
  });
  const team = useQuery({
    queryKey: ['team', session.team?.id],
    queryFn: () => call(api.GET('/id/api/teams/{id}', { params: { path: { id: session.team?.id ?? 0 } } })),
    enabled: session.team !== undefined,
  });

  const flowName = new Map((flows.data?.data ?? []).map((f) => [f.uuid, f.name]));
  const data = stats.data;
  const rows = data ? dayRows(data, type) : [];
  const groups = data
    ? groupRows(data, (g) => {
        if (groupBy === 'sender') {
          return (
            data.senders.find((s) => s.sender_profile_uuid === g.sender_profile_uuid)?.name ??
            'No sender recorded'
          );
        }
        const name = flowName.get(g.flow_uuid ?? '') ?? 'Deleted flow';
        return groupBy === 'flow' ? name : `${name}: source ${g.contact_source_id}`;
      })
    : [];
  const totals = data ? periodTotals(data) : undefined;
  const credits = team.data?.credits;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          Analytics
        </Title>
        <Group gap="sm" wrap="wrap">
          <SegmentedControl
            aria-label="Period"
            value={days}
            onChange={setDays}
            data={[
              { value: '7', label: '7 days' },
              { value: '30', label: '30 days' },
              { value: '90', label: '90 days' },
            ]}
          />
          <Select
            aria-label="Flow"
            placeholder="All flows"
            clearable
            w={220}
            value={flow}
            onChange={setFlow}
            data={(flows.data?.data ?? []).map((f) => ({ value: f.uuid, label: f.name }))}
          />
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 2, md: 5 }}>
        <Figure label="Actions" value={totals ? totals.actions.toLocaleString() : '…'} />
        <Figure label="Acceptance rate" value={totals ? percent(totals.acceptance.rate) : '…'}>
          <Text size="xs">of {totals?.acceptance.of ?? 0} requests</Text>
        </Figure>
        <Figure label="Reply rate" value={totals ? percent(totals.reply.rate) : '…'}>
          <Text size="xs">of {totals?.reply.of ?? 0} messages</Text>
        </Figure>
        <Figure label="Replies waiting" value={waiting.data ? String(waiting.data.total) : '…'}>
          <Anchor component={Link} to="/inbox" size="xs">
            Open the inbox
          </Anchor>
        </Figure>
        <Figure label="Credits" value={credits ? String(credits.advanced_enrichment) : '…'}>
          <Text size="xs">enrichment; {credits?.llm ?? 0} AI</Text>
        </Figure>
      </SimpleGrid>
      <SenderIssues />
      {data && data.senders.length === 0 ? (
        <Text>
          No sender yet.{' '}
          <Anchor component={Link} to="/senders">
            Add a sender profile
          </Anchor>{' '}
          and start a flow: what it does shows here day by day.
        </Text>
      ) : (
        data && (
          <>
            {totals?.actions === 0 && (
              <Text c="dimmed">
                Nothing was sent in this period. Start a flow in{' '}
                <Anchor component={Link} to="/flows">
                  Flows
                </Anchor>{' '}
                or choose a longer period.
              </Text>
            )}
            <ChartOrTable
              title="Actions per day per channel"
              rows={rows}
              columns={DAY_COLUMNS}
              fileName={`actions-${from}-${to}.csv`}
              chart={
                <BarChart
                  h={220}
                  data={rows}
                  dataKey="date"
                  type="stacked"
                  series={[
                    { name: 'linkedin', label: 'LinkedIn', color: 'blue.7' },
                    { name: 'email', label: 'E-mail', color: 'teal.7' },
                  ]}
                />
              }
            />
            <Group justify="flex-end">
              <Select
                aria-label="Action type"
                w={220}
                value={type}
                allowDeselect={false}
                onChange={(value) => value && setType(value)}
                data={Object.entries(ACTION_LABELS).map(([value, label]) => ({ value, label }))}
              />
            </Group>
            <ChartOrTable
              title={`${ACTION_LABELS[type]} per day against the limits`}
              rows={rows}
              columns={DAY_COLUMNS}
              fileName={`${type}-${from}-${to}.csv`}
              chart={
                <CompositeChart
                  h={220}
                  data={rows}
                  dataKey="date"
                  series={[
                    { name: 'actions', label: ACTION_LABELS[type], type: 'bar', color: 'blue.7' },
                    { name: 'limit', label: 'Daily limit', type: 'line', color: 'red.7' },
                  ]}
                />
              }
            />
            <ChartOrTable
              title="Acceptance and reply rates per day"
              rows={rows}
              columns={DAY_COLUMNS}
              fileName={`rates-${from}-${to}.csv`}
              chart={
                <LineChart
                  h={220}
                  data={rows}
                  dataKey="date"
                  unit=" %"
                  connectNulls
                  series={[
                    { name: 'acceptance', label: 'Acceptance', color: 'blue.7' },
                    { name: 'reply', label: 'Reply rate', color: 'grape.7' },
                  ]}
                />
              }
            />
            <Group justify="flex-end">
              <SegmentedControl
                aria-label="Conversions per"
                value={groupBy}
                onChange={(value) => setGroupBy(value as GroupBy)}
                data={[
                  { value: 'sender', label: 'Per sender' },
                  { value: 'flow', label: 'Per flow' },
                  { value: 'contact_source', label: 'Per contact source' },
                ]}
              />
            </Group>
            <ChartOrTable
              title={`Results per ${groupBy === 'contact_source' ? 'contact source' : groupBy}`}
              rows={groups}
              columns={GROUP_COLUMNS}
              fileName={`results-per-${groupBy}-${from}-${to}.csv`}
              chart={
                <BarChart
                  h={Math.max(160, groups.length * 40)}
                  data={groups}
                  dataKey="name"
                  orientation="vertical"
                  unit=" %"
                  series={[
                    { name: 'acceptance', label: 'Acceptance', color: 'blue.7' },
                    { name: 'reply', label: 'Reply rate', color: 'grape.7' },
                  ]}
                />
              }
            />
            <ChartOrTable
              title="Senders: actions against limits"
              rows={senderRows(data)}
              columns={SENDER_COLUMNS}
              fileName={`senders-${from}-${to}.csv`}
              chart={
                <BarChart
                  h={Math.max(160, data.senders.length * 40)}
                  data={senderRows(data)}
                  dataKey="name"
                  orientation="vertical"
                  series={[
                    { name: 'actions', label: 'Actions', color: 'blue.7' },
                    { name: 'limit', label: 'Limits', color: 'gray.5' },
                  ]}
                />
              }
            />
          </>
        )
      )}
    </Stack>
  );
}
