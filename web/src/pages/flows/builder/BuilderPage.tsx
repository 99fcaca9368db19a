// The flow builder: the flow drawn as a graph, steps added from the palette on any branch, each step
// edited in the side panel, undo/redo, the flow's settings, contacts and senders in the same screen.
// "Save" stores a new version through the API (and the settings); the API's problems show on the
// steps they name. Work in progress is kept in this browser until it is saved (useDraft).
import {
  Alert,
  Badge,
  Box,
  Button,
  Drawer,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Text,
  Title,
} from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, useBlocker, useParams } from '@tanstack/react-router';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type { FlowDetail, NodeTypeInfo } from '../flow-types';
import '../flows.css';
import { FlowGraph, type Selection } from './FlowGraph';
import { type NodeCommand, NodePanel } from './NodePanel';
import { branchesOf, initialPayload, MESSAGE_TYPES, NOTE_LIMIT } from './node-meta';
import { Palette } from './Palette';
import { problemCount } from './problems';
import { flowDetailQuery, nodeTypesQuery } from './queries';
import { SettingsPanel } from './SettingsPanel';
import { SourcePanel } from './SourcePanel';
import {
  type Clip,
  clipOf,
  deleteNode,
  deleteSubtree,
  fromVersion,
  insertNode,
  moveSubtree,
  nodeById,
  pasteClip,
  type Slot,
  setBranches,
  toVersionBody,
  updateNode,
} from './tree';
import { useDraft } from './useDraft';
import { useFunnel } from './useFunnel';
import { useSave } from './useSave';
import { useTemplateSubject } from './useTemplateSubject';

// The preview and its charts, and the template editor, load only when needed.
const MessageEditor = lazy(() => import('./MessageEditor').then((m) => ({ default: m.MessageEditor })));
const PreviewPanel = lazy(() => import('./preview/PreviewPanel').then((m) => ({ default: m.PreviewPanel })));

export function BuilderPage() {
  const { flowUuid } = useParams({ from: '/app/flows/$flowUuid' });
  const flow = useQuery(flowDetailQuery(flowUuid));
  const types = useQuery(nodeTypesQuery);
  if (flow.isError || types.isError) {
    return (
      <Alert color="red" role="alert" title="The flow could not be loaded">
        {(flow.error ?? types.error)?.message}
      </Alert>
    );
  }
  if (!flow.data || !types.data) return <Loader aria-label="Loading the flow" />;
  return <Builder key={flow.data.uuid} flow={flow.data} types={types.data} />;
}

type Panel = Selection | { settings: true };

function Builder({ flow, types }: { flow: FlowDetail; types: NodeTypeInfo[] }) {
  const draft = useDraft(flow);
  const { tree, settings } = draft.draft;
  const typeInfo = useMemo(() => new Map(types.map((t) => [t.type, t])), [types]);
  const [panel, setPanel] = useState<Panel>(null);
  const [adding, setAdding] = useState<{ slot: Slot; where: string } | null>(null);
  const [clip, setClip] = useState<{ clip: Clip; move: boolean } | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [showStats, setShowStats] = useState(false);
  const funnel = useFunnel(flow.uuid, tree, showStats);
  const save = useSave(flow, draft);
  const editable = flow.status !== 'archived';

  const select = useCallback((selection: Selection) => setPanel(selection), []);
  const openPalette = useCallback((slot: Slot, where: string) => setAdding({ slot, where }), []);
  const paste = useCallback(
    (slot: Slot) => {
      if (!clip) return;
      draft.change((d) => ({
        ...d,
        tree: clip.move ? moveSubtree(d.tree, clip.clip.root, slot) : pasteClip(d.tree, slot, clip.clip).tree,
      }));
      setClip(null);
    },
    [clip, draft.change],
  );

  useHotkeys([
    ['mod+Z', draft.undo],
    ['mod+shift+Z', draft.redo],
    ['mod+Y', draft.redo],
    ['Escape', () => setClip(null)],
  ]);

  const blocker = useBlocker({
    shouldBlockFn: () => draft.dirty,
    enableBeforeUnload: () => draft.dirty,
    withResolver: true,
  });

  function pick(info: NodeTypeInfo) {
    if (!adding) return;
    const payload = initialPayload(info.type);
    let created = 0;
    draft.change((d) => {
      const result = insertNode(d.tree, adding.slot, info.type, branchesOf(info, payload), payload);
      created = result.id;
      return { ...d, tree: result.tree };
    });
    setAdding(null);
    if (created) setPanel({ node: created });
  }

  function command(id: number, cmd: NodeCommand) {
    if (cmd === 'cut' || cmd === 'copy') {
      setClip({ clip: clipOf(tree, id), move: cmd === 'cut' });
      setPanel(null);
      return;
    }
    draft.change((d) => ({
      ...d,
      tree: cmd === 'delete' ? deleteNode(d.tree, id) : deleteSubtree(d.tree, id),
    }));
    setPanel(null);
  }

  const selectedNode = panel && 'node' in panel ? nodeById(tree, panel.node) : undefined;
  // The template editor's contact: asked for (a one-contact preview) only once a message step is open.
  const subject = useTemplateSubject(
    flow.uuid,
    tree.contact_sources[0]?.sender_profiles?.[0],
    selectedNode !== undefined && MESSAGE_TYPES.has(selectedNode.type),
  );
  const selectedSource =
    panel && 'source' in panel ? tree.contact_sources.find((s) => s.id === panel.source) : undefined;
  const problems = save.problems;
  const count = problemCount(problems);

  return (
    <Box className="lf-builder">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Button component={Link} to="/flows" variant="subtle" size="compact-sm">
            ← Flows
          </Button>
          <Title order={1} size="h3" lineClamp={1}>
            {settings.name}
          </Title>
          <Badge variant="light">{flow.status}</Badge>
          {draft.dirty && (
            <Badge color="orange" variant="light">
              Unsaved changes
            </Badge>
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Button
            variant="default"
            onClick={draft.undo}
            disabled={!draft.canUndo}
            aria-keyshortcuts="Control+Z"
          >
            Undo
          </Button>
          <Button
            variant="default"
            onClick={draft.redo}
            disabled={!draft.canRedo}
            aria-keyshortcuts="Control+Shift+Z"
          >
            Redo
          </Button>
          <Button variant="default" onClick={() => setPanel({ settings: true })}>
            Settings and schedule
          </Button>
          <Button
            variant={showStats ? 'light' : 'default'}
            aria-pressed={showStats}
            onClick={() => setShowStats((v) => !v)}
          >
            Statistics
          </Button>
          <Button variant="default" onClick={() => setPreviewing(true)}>
            What will happen
          </Button>
          <Button
            renderRoot={(props) => (
              <Link {...props} to="/flows/$flowUuid/contacts" params={{ flowUuid: flow.uuid }} />
            )}
            variant="default"
          >
            Contacts
          </Button>
          <Button
            onClick={() => save.run()}
            loading={save.saving}
            disabled={!editable || (!draft.dirty && count === 0)}
          >
            Save
          </Button>
        </Group>
      </Group>
      {draft.restored && (
        <Alert color="blue" mb="xs" withCloseButton={false}>
          Restored unsaved changes from {new Date(draft.restored.savedAt).toLocaleString()}
          {draft.restored.stale ? ' (made on an older version of this flow)' : ''}.{' '}
          <Button variant="subtle" size="compact-sm" onClick={draft.discard}>
            Discard them
          </Button>
        </Alert>
      )}
      {count > 0 && (
        <Alert
          color="red"
          mb="xs"
          role="alert"
          title={`The flow was not saved: ${count} problem${count === 1 ? '' : 's'}`}
        >
          {problems.other.length > 0 ? problems.other.join(' ') : 'See the steps marked in red.'}
        </Alert>
      )}
      {clip && (
        <Alert color="violet" mb="xs">
          {clip.move ? 'Moving' : 'Copying'} step {clip.clip.root} with what follows: choose “Paste here” on a
          branch.{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => setClip(null)}>
            Cancel
          </Button>
        </Alert>
      )}
      <Group align="stretch" gap="sm" wrap="nowrap" className="lf-builder-body">
        <Box className="lf-canvas">
          <FlowGraph
            tree={tree}
            selection={panel && !('settings' in panel) ? panel : null}
            problems={problems.nodes}
            badges={funnel.badges}
            edgeBadges={funnel.edgeBadges}
            sourceProblems={problems.sources}
            editable={editable}
            pasting={clip !== null}
            frame={panel ? 'with-panel' : 'full'}
            onSelect={select}
            onAdd={openPalette}
            onPaste={paste}
          />
        </Box>
        {panel && (
          <ScrollArea className="lf-panel" type="auto">
            <Box p="sm">
              <Group justify="flex-end">
                <Button
                  variant="subtle"
                  size="compact-sm"
                  onClick={() => setPanel(null)}
                  aria-label="Close the panel"
                >
                  Close
                </Button>
              </Group>
              {'settings' in panel && (
                <SettingsPanel
                  settings={settings}
                  editable={editable}
                  fieldErrors={save.settingsErrors}
                  onChange={(next, field) =>
                    draft.change((d) => ({ ...d, settings: next }), `settings-${field}`)
                  }
                />
              )}
              {selectedSource && (
                <SourcePanel
                  source={selectedSource}
                  problems={problems.sources.get(selectedSource.id) ?? []}
                  editable={editable}
                  onChange={(next, field) =>
                    draft.change(
                      (d) => ({
                        ...d,
                        tree: {
                          ...d.tree,
                          contact_sources: d.tree.contact_sources.map((s) => (s.id === next.id ? next : s)),
                        },
                      }),
                      `source-${next.id}-${field}`,
                    )
                  }
                />
              )}
              {selectedNode && (
                <NodePanel
                  key={selectedNode.id}
                  node={selectedNode}
                  info={typeInfo.get(selectedNode.type)}
                  problems={problems.nodes.get(selectedNode.id) ?? []}
                  editable={editable}
                  onCommand={(cmd) => command(selectedNode.id, cmd)}
                  messageEditor={(field, value, onChange) => (
                    <Suspense fallback={<Loader size="xs" aria-label="Loading the editor" />}>
                      <MessageEditor
                        label={field === 'subject' ? 'Subject' : 'Text'}
                        value={typeof value === 'string' ? value : ''}
                        onChange={(text) => onChange(text === '' ? undefined : text)}
                        limit={
                          field === 'template' && selectedNode.type === 'linkedin_send_connection_request'
                            ? NOTE_LIMIT
                            : undefined
                        }
                        subject={subject}
                        disabled={!editable}
                      />
                    </Suspense>
                  )}
                  onChange={(change, field) => {
                    draft.change((d) => {
                      let next = updateNode(d.tree, selectedNode.id, {
                        ...(change.payload ? { payload: change.payload } : {}),
                        ...(change.delay_in_seconds !== undefined
                          ? { delay_in_seconds: change.delay_in_seconds }
                          : {}),
                      });
                      if (change.branches) next = setBranches(next, selectedNode.id, change.branches);
                      return { ...d, tree: next };
                    }, `node-${selectedNode.id}-${field}`);
                    save.recheck(selectedNode.id);
                  }}
                />
              )}
              {panel && 'node' in panel && !selectedNode && <Text>This step no longer exists.</Text>}
            </Box>
          </ScrollArea>
        )}
      </Group>
      <Palette
        opened={adding !== null}
        where={adding?.where ?? ''}
        types={types}
        onClose={() => setAdding(null)}
        onPick={pick}
      />
      <Drawer
        opened={previewing}
        onClose={() => setPreviewing(false)}
        position="right"
        size="xl"
        title="What will happen"
      >
        <Suspense fallback={<Loader aria-label="Loading the preview" />}>
          <PreviewPanel
            flowUuid={flow.uuid}
            version={() =>
              JSON.stringify(tree) === JSON.stringify(fromVersion(flow)) ? undefined : toVersionBody(tree)
            }
            onProblems={(error, body) => {
              save.showProblems(error, body);
              setPreviewing(false);
            }}
          />
        </Suspense>
      </Drawer>
      <Modal
        opened={blocker.status === 'blocked'}
        onClose={() => blocker.reset?.()}
        title="Leave with unsaved changes?"
      >
        <Text mb="md">
          Your changes to {settings.name} are not saved. They stay in this browser and come back when you open
          the flow again, but nobody else sees them and the flow runs its saved version.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()}>
            Stay
          </Button>
          <Button color="orange" onClick={() => blocker.proceed?.()}>
            Leave
          </Button>
        </Group>
      </Modal>
    </Box>
  );
}
