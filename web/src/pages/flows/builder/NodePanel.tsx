// The side panel of one step: what it does, the wait before it, its payload (a form from the type's
// schema; message texts in the template editor), the API's problems for it, and the subtree moves.
import { Alert, Button, Divider, Group, Menu, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { NodeTypeInfo } from '../flow-types';
import { DurationInput } from './DurationInput';
import { branchesOf, labelOf, MESSAGE_TYPES } from './node-meta';
import { ProblemsAlert } from './ProblemsAlert';
import { type FieldOverrides, type JsonSchema, SchemaForm } from './SchemaForm';
import type { Node } from './tree';

export type NodeCommand = 'delete' | 'delete-subtree' | 'cut' | 'copy';

/** How long the panel keeps payload edits before the draft (and the graph) takes them. */
const COMMIT_AFTER_MS = 250;

/**
 * The payload as the panel shows it: edits render here at once and reach the draft after a pause in
 * typing (or when the panel closes), so a keystroke re-renders the panel, not the whole 100-step graph
 * (`npm run bench -- builder`). Changes from outside (undo, a save's answer) show when nothing is pending.
 */
function useBufferedPayload(payload: Record<string, unknown>, commit: (p: Record<string, unknown>) => void) {
  const [local, setLocal] = useState(payload);
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; value: Record<string, unknown> } | null>(
    null,
  );
  const commitRef = useRef(commit);
  commitRef.current = commit;
  useEffect(() => {
    if (!pending.current) setLocal(payload);
  }, [payload]);
  const flush = () => {
    if (!pending.current) return;
    clearTimeout(pending.current.timer);
    const { value } = pending.current;
    pending.current = null;
    commitRef.current(value);
  };
  // Closing the panel (another step, the page left) hands over what is pending.
  // biome-ignore lint/correctness/useExhaustiveDependencies: flush reads refs only
  useEffect(() => flush, []);
  const change = (value: Record<string, unknown>) => {
    setLocal(value);
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = {
      value,
      timer: setTimeout(() => {
        pending.current = null;
        commitRef.current(value);
      }, COMMIT_AFTER_MS),
    };
  };
  return [local, change, flush] as const;
}

export function NodePanel(props: {
  node: Node;
  info: NodeTypeInfo | undefined;
  problems: string[];
  editable: boolean;
  /** The message editor of message steps (template editor with checks and preview). */
  messageEditor?: (
    field: 'template' | 'subject',
    value: unknown,
    onChange: (v: unknown) => void,
  ) => ReactNode;
  onChange(
    change: { payload?: Record<string, unknown>; delay_in_seconds?: number; branches?: number[] },
    field: string,
  ): void;
  onCommand(command: NodeCommand): void;
}) {
  const { node, info } = props;
  const [payload, setPayload, flushPayload] = useBufferedPayload(node.payload, (value) => {
    const change: { payload: Record<string, unknown>; branches?: number[] } = { payload: value };
    // Routers name their branches in the payload: the graph follows.
    if (info?.branches === 'payload') change.branches = branchesOf(info, value);
    props.onChange(change, 'payload');
  });
  const title = `Step ${node.id}: ${labelOf(node.type)}`;
  const isTrigger = node.type.startsWith('trigger_') && node.type !== 'trigger_website_page_visited';
  const overrides: FieldOverrides = {};
  if (isTrigger) {
    overrides.subtasks = ({ value, onChange }) => {
      const wait =
        (value as Array<{ payload?: { wait_time?: number } }> | undefined)?.[0]?.payload?.wait_time ?? 0;
      return (
        <DurationInput
          label="Timeout"
          description="How long to wait before taking the other branch"
          value={wait}
          onChange={(seconds) =>
            onChange(seconds > 0 ? [{ type: 'util_timer', payload: { wait_time: seconds } }] : undefined)
          }
        />
      );
    };
  }
  if (MESSAGE_TYPES.has(node.type) && props.messageEditor) {
    const editor = props.messageEditor;
    overrides.template = ({ value, onChange }) => editor('template', value, onChange);
    if (node.type === 'linkedin_send_inmail' || node.type === 'email_send_message') {
      overrides.subject = ({ value, onChange }) => editor('subject', value, onChange);
    }
  }

  return (
    // Leaving the panel's fields (to Save, to the graph) hands pending edits to the draft first.
    <Stack gap="sm" aria-label={title} role="region" onBlur={flushPayload}>
      <div>
        <Title order={2} size="h4">
          {title}
        </Title>
        {info && (
          <Text size="sm" c="dimmed">
            {info.description}
          </Text>
        )}
      </div>
      <ProblemsAlert problems={props.problems} />
      {node.type !== 'end' && (
        <DurationInput
          label="Wait before this step"
          value={node.delay_in_seconds ?? 0}
          onChange={(seconds) => props.onChange({ delay_in_seconds: seconds }, 'delay')}
        />
      )}
      {info ? (
        <fieldset disabled={!props.editable} style={{ border: 0, padding: 0, margin: 0 }}>
          <SchemaForm
            schema={info.payload_schema as JsonSchema}
            value={payload}
            idPrefix={`step-${node.id}`}
            overrides={overrides}
            onChange={setPayload}
          />
        </fieldset>
      ) : (
        <Alert color="orange">The API does not know the type {node.type}.</Alert>
      )}
      {props.editable && node.type !== 'end' && (
        <>
          <Divider />
          <Group gap="xs">
            <Button variant="light" color="red" onClick={() => props.onCommand('delete')}>
              Delete step
            </Button>
            <Menu position="bottom-start">
              <Menu.Target>
                <Button variant="default">More</Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => props.onCommand('cut')}>Move with what follows…</Menu.Item>
                <Menu.Item onClick={() => props.onCommand('copy')}>Copy with what follows…</Menu.Item>
                <Menu.Item color="red" onClick={() => props.onCommand('delete-subtree')}>
                  Delete with what follows
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </>
      )}
    </Stack>
  );
}
