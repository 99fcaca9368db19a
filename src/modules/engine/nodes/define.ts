// One definition per node type: what the flows module validates a saved node against (category,
// branches, closed payload schema, references, template texts, rules beyond the shape) and how the
// engine runs it - in one place, so a type cannot be saved without a runner or run without a schema.
// `registry.ts` gathers the definitions; a kind of node is one file beside this one.
import type { Static, TSchema } from 'typebox';
import type { BatchContext, Need, Work, WorkStep } from '../run/work.js';
import type { EngineNode } from '../version.js';

export type NodeCategory =
  | 'trigger'
  | 'action'
  | 'branch'
  | 'delay'
  | 'hold'
  | 'control'
  | 'terminal'
  | 'special';

/** Branch ids that must leave a node: fixed per type, or the ids its payload's `branches` declare. */
export type BranchRule = { kind: 'none' } | { kind: 'fixed'; ids: readonly number[] } | { kind: 'payload' };

/** Kinds of team records a payload may name (checked to exist when a version is saved). */
export type ReferenceKind =
  | 'tag'
  | 'list'
  | 'pipeline_stage'
  | 'sender_profile'
  | 'flow'
  | 'webhook'
  | 'ai_template'
  | 'attachment'
  | 'integration'
  | 'api_call_account';

export type Reference = { kind: ReferenceKind; uuid: string; path: string };

/** A text of a payload the engine renders, at its path under the node (`payload.subject`). */
export type TemplateText = { path: string; text: string };

/** A rule of a payload beyond its shape, broken: `field` under the node (`payload.branches`). */
export type RuleProblem = { field: string; message: string };

/** A contact filter a payload carries, at its path under the node (compiled when a version is saved). */
export type PayloadFilter = { path: string; filter: Record<string, unknown> };

/**
 * What a node needs from outside itself: `sender` - it works through the contact's sender (LinkedIn or
 * e-mail), so a flow holding it needs a usable sender; the other kinds are the Needs its runner may ask
 * the batch to answer before it decides (`run/round-needs.ts` resolves each kind for a whole round at once).
 */
export type NodeNeed = 'sender' | Need['kind'];

/** A node whose payload passed its type's schema (checked once, when the version is compiled). */
export type NodeOf<P> = EngineNode<P>;

export type NodeDefinition<P extends TSchema = TSchema> = {
  /** The node types this definition covers, each with its description (GET node-types). */
  types: Readonly<Record<string, string>>;
  category: NodeCategory;
  /** Closed schema of the payload (an absent payload or `[]` is read as `{}`). */
  payload: P;
  branches: BranchRule;
  needs?: readonly NodeNeed[];
  /**
   * Records of the team the payload names. Read from the payload as given, before or whatever its
   * shape check says (a save reports a missing tag beside a bad field), so it reads defensively.
   */
  references?(payload: Record<string, unknown>): Reference[];
  /** The payload's texts the engine renders (Liquid and spintax): each must parse when a version is saved. */
  texts?(payload: Static<P>): TemplateText[];
  /** Contact filters of the payload (compiled when a version is saved; read defensively, as references). */
  filters?(payload: Record<string, unknown>): PayloadFilter[];
  /** Rules of the payload beyond its shape (checked once the shape is valid). */
  rules?(payload: Static<P>, context: { flowUuid?: string }): RuleProblem[];
  /** One visit of an enrollment at the node: what happens next. Pure over the batch context. */
  run(work: Work, node: NodeOf<Static<P>>, ctx: BatchContext): WorkStep;
};

export type AnyNodeDefinition = NodeDefinition<TSchema>;

export function defineNode<P extends TSchema>(definition: NodeDefinition<P>): NodeDefinition<P> {
  return definition;
}
