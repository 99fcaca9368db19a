// The engine's facade: what the rest of the product may use of it. Everything else under engine/ is
// internal (test/platform/import-graph.test.ts fails on an import of it from outside). Other modules
// move enrollments through src/modules/enrollments and act on channels through src/modules/channels.

export { createEngine, type Engine, type EngineDeps, SimulatedCrash, type TickResult } from './engine.js';
export { senderActionLimits } from './limits.js';
/** The node registry: one definition per node type, read by the flows validator and the machine. */
export type { AnyNodeDefinition, ReferenceKind } from './nodes/define.js';
export { NODE_TYPE_NAMES, nodeDefinition, payloadValidator } from './nodes/registry.js';
/** The flow preview: the engine's own machine run in memory over a sample of contacts. */
export { type PreviewEnrollment, type PreviewRun, runPreview } from './preview/preview-run.js';
export { dailyLimitOf, newLane, type QueuedAction, type SenderLane } from './preview/preview-senders.js';
export type { ActionRenderer } from './render.js';
/** Hand-queued actions (LinkedIn messages) go through the dispatcher's never-twice, limits and requests. */
export { actionLeads } from './run/action-requests.js';
export type { SenderLimits } from './run/dispatch-guards.js';
export { FAILURE_HANDLING, type Handling } from './run/outcomes.js';
export { askOutcome, type CrashPoint, sendOnce } from './run/send-once.js';
export { senderActions, senderRoom } from './run/sender-usage.js';
export type { EnrollmentRow, SenderRow, SignalRow } from './run/work.js';
/** How channels report what a contact did (a reply, an acceptance, an open): triggers wake, stop rules apply. */
export { type IncomingSignal, ingestSignals, ingestSignalsIn } from './signals.js';
export { createTemplateRenderer } from './template-renderer.js';
export { type CompiledVersion, compileVersion } from './version.js';
