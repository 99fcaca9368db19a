// "What will happen": the builder's draft run through POST /flows/api/flows/{uuid}/preview - the engine's
// own node machine on simulated days with the senders' limits and the sandbox's answer rates. Shows when
// contacts finish, a day-by-day chart of each sender's actions against its limits (the numbers one click
// away), when contacts reach each step, and what the first contacts receive. Nothing is sent.
import { CompositeChart } from '@mantine/charts';
import {
  Accordion,
  Alert,
  Button,
  Group,
  List,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, call } from '../../../../api';
import { ChartOrTable, type Column } from '../../../../ui/ChartOrTable';
import { when } from '../../../../ui/format';
import type { PreviewBody, PreviewResult } from '../../flow-types';
import { labelOf } from '../node-meta';
import { actionTypesOf, dayRows, finishText, type TableRow, tableRows } from './preview-data';

const COLORS = ['blue.7', 'teal.7', 'grape.7', 'orange.7', 'cyan.7', 'pink.7', 'lime.8', 'indigo.7'];

const TABLE: Column<TableRow>[] = [
  { key: 'date', label: 'Day' },
  { key: 'action', label: 'Action' },
  { key: 'done', label: 'Done' },
  { key: 'limit', label: 'Daily limit' },
  { key: 'waiting', label: 'Waiting on limits' },
];

type NodeRow = PreviewResult['nodes'][number] & { label: string };
const NODE_COLUMNS: Column<NodeRow>[] = [
  { key: 'id', label: 'Step' },
  { key: 'label', label: 'Type' },
  { key: 'reached', label: 'Contacts' },
  { key: 'first_at', label: 'First', format: (v) => when(v as string | null) },
  { key: 'median_at', label: 'Half of them by', format: (v) => when(v as string | null) },
  { key: 'last_at', label: 'Last', format: (v) => when(v as string | null) },
  { key: 'accepted', label: 'Accepted' },
  { key: 'replied', label: 'Replied' },
];

export function PreviewPanel({
  flowUuid,
  version,
  onProblems,
}: {
  flowUuid: string;
  /** The draft's tree when it differs from the saved version. */
  version: () => PreviewBody['version'];
  onProblems: (error: ApiError, body: NonNullable<PreviewBody['version']>) => void;
}) {
  const [sample, setSample] = useState<number | string>(100);
  const [days, setDays] = useState<number | string>(30);
  const [accept, setAccept] = useState<number | string>('');
  const [reply, setReply] = useState<number | string>('');
  const run = useMutation({
    mutationFn: async () => {
      const draft = version();
      const body: PreviewBody = {
        sample: Number(sample) || 100,
        days: Number(days) || 30,
        detail: 10,
        ...(draft ? { version: draft } : {}),
        assumptions: {
          ...(accept === '' ? {} : { accept_rate: Number(accept) / 100 }),
          ...(reply === '' ? {} : { reply_rate: Number(reply) / 100 }),
        },
      };
      try {
        return await call(
          api.POST('/flows/api/flows/{flowUuid}/preview', { params: { path: { flowUuid } }, body }),
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 422 && draft) onProblems(error, draft);
        throw error;
      }
    },
  });
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Runs this draft on the engine over simulated days: the senders' schedules, limits and warm-up, and
        contacts answering at the rates below. Nothing is sent and nothing changes. The flow's saved schedule
        is used.
      </Text>
      <SimpleGrid cols={2} spacing="xs">
        <NumberInput
          label="Contacts"
          description="A sample of the flow's sources"
          min={1}
          max={10_000}
          value={sample}
          onChange={setSample}
        />
        <NumberInput label="Days" min={1} max={90} value={days} onChange={setDays} />
        <NumberInput
          label="Acceptance rate (%)"
          placeholder="The sandbox's"
          min={0}
          max={100}
          value={accept}
          onChange={setAccept}
        />
        <NumberInput
          label="Reply rate (%)"
          placeholder="The sandbox's"
          min={0}
          max={100}
          value={reply}
          onChange={setReply}
        />
      </SimpleGrid>
      <Group>
        <Button onClick={() => run.mutate()} loading={run.isPending}>
          Run preview
        </Button>
      </Group>
      {run.isError && (
        <Alert color="red" role="alert" title="The preview did not run">
          {run.error.message}
        </Alert>
      )}
      {run.data && <PreviewAnswer result={run.data} />}
    </Stack>
  );
}

function PreviewAnswer({ result }: { result: PreviewResult }) {
  const [senderUuid, setSenderUuid] = useState<string | null>(result.senders[0]?.uuid ?? null);
  const sender = result.senders.find((s) => s.uuid === senderUuid) ?? result.senders[0];
  const actions = Object.entries(result.totals.actions);
  const nodes: NodeRow[] = result.nodes.map((n) => ({ ...n, label: labelOf(n.type) }));
  return (
    <Stack gap="md" aria-live="polite">
      <Alert color={result.complete ? 'blue' : 'orange'} title={finishText(result)}>
        <Text size="sm">
          {result.contacts.total} contacts from {when(result.started_at)}:{' '}
          {actions.length > 0
            ? actions.map(([type, n]) => `${n} × ${labelOf(type)}`).join(', ')
            : 'no action'}
          ; {result.totals.accepted} accepted, {result.totals.replied} replied;{' '}
          {result.totals.waiting_on_limits} actions wait on limits at the end. Assumed:{' '}
          {Math.round(result.assumptions.accept_rate * 100)}% accept,{' '}
          {Math.round(result.assumptions.reply_rate * 100)}% reply. Took{' '}
          {(result.stats.wall_ms / 1000).toFixed(1)} s.
        </Text>
      </Alert>
      {result.warnings.length > 0 && (
        <List size="xs" c="dimmed" aria-label="What the preview could not know">
          {result.warnings.map((w) => (
            <List.Item key={w}>{w}</List.Item>
          ))}
        </List>
      )}
      {result.senders.length > 1 && (
        <Select
          label="Sender"
          data={result.senders.map((s) => ({ value: s.uuid, label: s.name }))}
          value={sender?.uuid ?? null}
          onChange={setSenderUuid}
          allowDeselect={false}
        />
      )}
      {sender && <SenderChart sender={sender} />}
      <ChartOrTable
        title="When contacts reach each step"
        rows={nodes}
        columns={NODE_COLUMNS}
        fileName="preview-steps.csv"
        chart={
          <CompositeChart
            h={220}
            data={nodes.map((n) => ({ step: `${n.id} ${n.label}`, Contacts: n.reached }))}
            dataKey="step"
            series={[{ name: 'Contacts', type: 'bar', color: 'blue.7' }]}
          />
        }
      />
      <div>
        <Text fw={600} mb="xs">
          What the first contacts receive
        </Text>
        <Accordion variant="separated" chevronPosition="left">
          {result.enrollments.map((e) => (
            <Accordion.Item key={e.lead_uuid} value={e.lead_uuid}>
              <Accordion.Control>
                {e.name ?? e.lead_uuid} - {e.status}
                {e.reason ? ` (${e.reason})` : ''}
              </Accordion.Control>
              <Accordion.Panel>
                <List size="sm" spacing={4}>
                  {e.steps.map((step, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a contact may visit a step twice
                    <List.Item key={i}>
                      <Text span fw={500}>
                        {when(step.executed_at ?? step.reached_at)} · step {step.node_id} {labelOf(step.type)}
                      </Text>{' '}
                      <Text span c="dimmed">
                        {step.status}
                        {step.error_code ? ` (${step.error_code})` : ''}
                      </Text>
                      {step.text && (
                        <Text size="sm" className="lf-preview-text">
                          “{step.text}”
                        </Text>
                      )}
                      {step.missing_variables.length > 0 && (
                        <Text size="xs" c="orange.9">
                          No value for: {step.missing_variables.join(', ')}
                        </Text>
                      )}
                    </List.Item>
                  ))}
                </List>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      </div>
    </Stack>
  );
}

function SenderChart({ sender }: { sender: PreviewResult['senders'][number] }) {
  const types = actionTypesOf(sender);
  const series = types.flatMap((type, i) => [
    { name: labelOf(type), type: 'bar' as const, color: COLORS[i % COLORS.length] as string },
    {
      name: `${labelOf(type)} limit`,
      type: 'line' as const,
      color: COLORS[i % COLORS.length] as string,
      strokeDasharray: '4 3',
    },
  ]);
  return (
    <ChartOrTable
      title={`Actions per day of ${sender.name} against its limits`}
      rows={tableRows(sender)}
      columns={TABLE}
      fileName={`preview-${sender.name.replaceAll(/\W+/g, '-')}.csv`}
      chart={
        <>
          {sender.unavailable.length > 0 && (
            <Text size="xs" c="orange.9">
              Cannot act: {sender.unavailable.join('; ')}
            </Text>
          )}
          <CompositeChart
            h={260}
            data={dayRows(sender)}
            dataKey="date"
            series={series}
            withLegend
            curveType="stepAfter"
          />
        </>
      }
    />
  );
}
