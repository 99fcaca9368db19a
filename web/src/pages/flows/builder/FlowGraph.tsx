// The flow drawn as a graph (React Flow): a start box per contact source, a box per node, an edge per
// branch with its label and a "+" that opens the palette there (or "Paste here" while a subtree is
// cut or copied). Boxes show the API's problems for their node and, when given, counts (the funnel
// of the analytics, or the preview's).
import '@xyflow/react/dist/style.css';
import {
  Background,
  BaseEdge,
  Controls,
  EdgeLabelRenderer,
  type EdgeProps,
  type Edge as FlowEdge,
  type Node as FlowNode,
  getSmoothStepPath,
  Handle,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
  useReactFlow,
} from '@xyflow/react';
import { memo, type ReactNode, useCallback, useEffect, useMemo, useRef } from 'react';
import {
  layoutTree,
  NODE_HEIGHT,
  NODE_WIDTH,
  nodeKey,
  type Positions,
  START_HEIGHT,
  shapeKey,
  sourceKey,
} from './layout';
import { branchLabel, delayText, labelOf, summaryOf } from './node-meta';
import { useStableItems } from './stable-items';
import type { Slot, Tree } from './tree';

export type Selection = { node: number } | { source: number } | null;

export type GraphProps = {
  tree: Tree;
  selection: Selection;
  problems: Map<number, string[]>;
  sourceProblems?: Map<number, string[]>;
  /** Extra lines per node (funnel counts, preview counts). */
  badges?: Map<number, ReactNode>;
  /** Extra lines per edge, keyed `${from}:${branch}`. */
  edgeBadges?: Map<string, string>;
  editable: boolean;
  pasting: boolean;
  /** Changes when the canvas changes size (a panel opened): the view fits the flow again. */
  frame?: string;
  onSelect(selection: Selection): void;
  onAdd(slot: Slot, anchorLabel: string): void;
  onPaste(slot: Slot): void;
};

type StepData = {
  id: number;
  title: string;
  summary: string;
  delay: string;
  problems: string[];
  selected: boolean;
  badge?: ReactNode;
  isEnd: boolean;
  onSelect(selection: Selection): void;
};
type StartData = {
  id: number;
  title: string;
  problems: string[];
  selected: boolean;
  onSelect(selection: Selection): void;
};
// Plain values only (no objects built per render), so an unchanged edge keeps its identity (stable-items).
type BranchData = {
  label: string;
  badge?: string;
  /** The branch: a source's start (`source`) or a node's branch (`from`, `branch`). */
  source?: number;
  from?: number;
  branch?: number;
  anchor: string;
  editable: boolean;
  pasting: boolean;
  onAdd(slot: Slot, anchor: string): void;
  onPaste(slot: Slot): void;
};

function BoxProblems({ problems, label }: { problems: string[]; label: string }) {
  if (problems.length === 0) return null;
  return (
    <ul className="lf-step-problems" aria-label={label}>
      {problems.map((p) => (
        <li key={p}>{p}</li>
      ))}
    </ul>
  );
}

const StepBox = memo(function StepBox({ data }: NodeProps<FlowNode<StepData>>) {
  const bad = data.problems.length > 0;
  return (
    <div
      className="lf-step"
      data-selected={data.selected}
      data-problem={bad}
      data-end={data.isEnd}
      style={{ width: NODE_WIDTH, minHeight: data.isEnd ? 40 : NODE_HEIGHT }}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <button
        type="button"
        className="lf-step-open nodrag"
        onClick={() => data.onSelect({ node: data.id })}
        aria-label={`Step ${data.id}: ${data.title}${bad ? ' (has problems)' : ''}`}
      >
        <span className="lf-step-title">
          {data.title}
          {data.delay && <span className="lf-step-delay">after {data.delay}</span>}
        </span>
        {data.summary && <span className="lf-step-summary">{data.summary}</span>}
      </button>
      {data.badge && <div className="lf-step-badge">{data.badge}</div>}
      <BoxProblems problems={data.problems} label={`Problems of step ${data.id}`} />
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});

const StartBox = memo(function StartBox({ data }: NodeProps<FlowNode<StartData>>) {
  const bad = data.problems.length > 0;
  return (
    <div
      className="lf-step lf-start"
      data-selected={data.selected}
      data-problem={bad}
      style={{ width: NODE_WIDTH, minHeight: START_HEIGHT }}
    >
      <button
        type="button"
        className="lf-step-open nodrag"
        onClick={() => data.onSelect({ source: data.id })}
        aria-label={`${data.title}: contacts and senders`}
      >
        <span className="lf-step-title">{data.title}</span>
        <span className="lf-step-summary">Contacts and senders</span>
      </button>
      <BoxProblems problems={data.problems} label={`Problems of ${data.title}`} />
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
});

const BranchEdge = memo(function BranchEdge(props: EdgeProps<FlowEdge<BranchData>>) {
  const [path] = getSmoothStepPath({ ...props, borderRadius: 12 });
  // On the last leg, above the step the branch leads to: siblings' labels stand a box's width apart
  // instead of meeting in the middle (where "accepted" and "not accepted" overlapped).
  const labelX = props.targetX;
  const labelY = props.targetY - (props.targetY - props.sourceY) / 4;
  const data = props.data as BranchData;
  const slot: Slot =
    data.source !== undefined ? { source: data.source } : { from: data.from!, branch: data.branch! };
  const where = data.label ? `${data.anchor} (${data.label})` : data.anchor;
  return (
    <>
      <BaseEdge id={props.id} path={path} markerEnd={props.markerEnd} />
      <EdgeLabelRenderer>
        <div
          className="lf-edge-label nodrag nopan"
          style={{ transform: `translate(-50%, -50%) translate(${labelX}px,${labelY}px)` }}
        >
          {data.label && <span className="lf-edge-text">{data.label}</span>}
          {data.badge && <span className="lf-edge-badge">{data.badge}</span>}
          {data.editable && !data.pasting && (
            <button
              type="button"
              className="lf-edge-add"
              aria-label={`Add step after ${where}`}
              onClick={() => data.onAdd(slot, where)}
            >
              +
            </button>
          )}
          {data.editable && data.pasting && (
            <button
              type="button"
              className="lf-edge-paste"
              aria-label={`Paste after ${where}`}
              onClick={() => data.onPaste(slot)}
            >
              Paste here
            </button>
          )}
        </div>
      </EdgeLabelRenderer>
    </>
  );
});

/** Keeps the whole flow in view when its shape changes (a step added, a subtree moved). */
function FitOnChange({ shape }: { shape: string }) {
  const flow = useReactFlow();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the shape is what the effect follows
  useEffect(() => {
    // After React Flow measured the new boxes.
    const frame = requestAnimationFrame(() => void flow.fitView({ maxZoom: 1, padding: 0.15 }));
    return () => cancelAnimationFrame(frame);
  }, [shape, flow]);
  return null;
}

const nodeTypes = { step: StepBox, start: StartBox };
const edgeTypes = { branch: BranchEdge };

const NO_PROBLEMS: string[] = [];

export function FlowGraph(props: GraphProps) {
  const shape = shapeKey(props.tree);
  // The layout depends on the shape only: typing in a step does not lay the graph out again.
  const layoutCache = useRef<{ shape: string; positions: Positions } | null>(null);
  if (layoutCache.current?.shape !== shape)
    layoutCache.current = { shape, positions: layoutTree(props.tree) };
  const positions = layoutCache.current.positions;
  const { tree, selection, problems, badges, editable, pasting, onSelect, onAdd, onPaste } = props;
  const { sourceProblems, edgeBadges } = props;
  // The boxes' sizes as React Flow measured them: a box whose text changed keeps its size (and its
  // handles) instead of being hidden and measured again; a resize still reaches React Flow.
  const measured = useRef(new Map<string, { width: number; height: number }>());
  const onNodesChange = useCallback((changes: NodeChange[]) => {
    for (const change of changes) {
      if (change.type === 'dimensions' && change.dimensions)
        measured.current.set(change.id, change.dimensions);
    }
  }, []);
  const withSize = useCallback((node: FlowNode) => {
    const size = measured.current.get(node.id);
    return size ? { ...node, measured: size } : node;
  }, []);

  const built = useMemo(() => {
    const list: FlowNode[] = [];
    for (const s of tree.contact_sources) {
      list.push({
        id: sourceKey(s.id),
        type: 'start',
        position: positions.get(sourceKey(s.id)) ?? { x: 0, y: 0 },
        draggable: false,
        selectable: false,
        data: {
          id: s.id,
          title: tree.contact_sources.length > 1 ? `Start: ${s.name || `source ${s.id}`}` : 'Start',
          problems: sourceProblems?.get(s.id) ?? NO_PROBLEMS,
          selected: selection !== null && 'source' in selection && selection.source === s.id,
          onSelect,
        } satisfies StartData,
      });
    }
    for (const n of tree.nodes) {
      list.push({
        id: nodeKey(n.id),
        type: 'step',
        position: positions.get(nodeKey(n.id)) ?? { x: 0, y: 0 },
        draggable: false,
        selectable: false,
        data: {
          id: n.id,
          title: labelOf(n.type),
          summary: summaryOf(n),
          delay: delayText(n.delay_in_seconds),
          problems: problems.get(n.id) ?? NO_PROBLEMS,
          selected: selection !== null && 'node' in selection && selection.node === n.id,
          badge: badges?.get(n.id),
          isEnd: n.type === 'end',
          onSelect,
        } satisfies StepData,
      });
    }
    return list;
  }, [tree, positions, problems, badges, selection, onSelect, sourceProblems]);
  const nodes = useStableItems(built, withSize);

  const builtEdges = useMemo(() => {
    const list: FlowEdge[] = [];
    const common = { editable, pasting, onAdd, onPaste };
    for (const s of tree.contact_sources) {
      if (typeof s.after_id !== 'number') continue;
      list.push({
        id: `e-${sourceKey(s.id)}`,
        source: sourceKey(s.id),
        target: nodeKey(s.after_id),
        type: 'branch',
        data: {
          ...common,
          label: '',
          source: s.id,
          anchor: tree.contact_sources.length > 1 ? `Start ${s.id}` : 'Start',
        } satisfies BranchData,
      });
    }
    for (const n of tree.nodes) {
      for (const e of n.after) {
        list.push({
          id: `e-${n.id}-${e.branch_id}`,
          source: nodeKey(n.id),
          target: nodeKey(e.node_id),
          type: 'branch',
          data: {
            ...common,
            label: branchLabel(n, e.branch_id),
            badge: edgeBadges?.get(`${n.id}:${e.branch_id}`),
            from: n.id,
            branch: e.branch_id,
            anchor: `step ${n.id}`,
          } satisfies BranchData,
        });
      }
    }
    return list;
  }, [tree, editable, pasting, onAdd, onPaste, edgeBadges]);
  const edges = useStableItems(builtEdges);

  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      onNodesChange={onNodesChange}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      fitView
      fitViewOptions={{ maxZoom: 1, padding: 0.15 }}
      minZoom={0.2}
      nodesConnectable={false}
      nodesDraggable={false}
      elementsSelectable={false}
      proOptions={{ hideAttribution: true }}
      onPaneClick={() => onSelect(null)}
      aria-label="Flow graph"
    >
      <Background gap={24} />
      <Controls showInteractive={false} />
      <FitOnChange shape={`${shape}|${props.frame ?? ''}`} />
    </ReactFlow>
  );
}
