// How the engine turns an action node's template into the text it sends: the variables of a batch's
// contacts and senders (and the saved AI templates its nodes name) are loaded once, then each node
// renders synchronously - or, for a node with a `template_uuid`, composes its message asynchronously
// (the template's prompt may call the LLM) in the batch's round of Needs. The renderer is a dependency
// so the engine uses the same code as the AI-template render endpoint.
import type { Executor } from '../../db/database.js';

/** `missing`: variables that printed blank; `error`: the template cannot be rendered at all. */
export type Rendered = { text: string | null; missing: string[]; error?: string };

/** A message composed from a saved AI template: its text and subject, and how it came about. */
export type ComposedAction = {
  text: string | null;
  subject: string | null;
  missing: string[];
  /** Why there is no text to send (the template is gone, the LLM failed without a fallback...). */
  error?: string;
  /** template | ai | fallback (recorded on the task). */
  source?: string | null;
  /** Why the fallback was used, when it was. */
  note?: string | null;
};

export interface ActionRenderer {
  /**
   * Prepares what templates of these contacts and senders can use, and loads the saved AI templates
   * named (a few queries for all of them).
   */
  prepare(
    db: Executor,
    teamId: number,
    leadUuids: string[],
    senderUuids: string[],
    aiTemplateUuids: string[],
  ): Promise<PreparedRender>;
}

export interface PreparedRender {
  /** Renders `template` for one contact and sender; `seed` makes spintax choices repeatable. */
  render(
    template: string | null | undefined,
    leadUuid: string,
    senderUuid: string | null,
    seed: string,
  ): Rendered;
  /** Composes the message of a saved AI template for one contact and sender (never throws). */
  compose(
    aiTemplateUuid: string,
    leadUuid: string,
    senderUuid: string | null,
    seed: string,
    /** The flow the message is for (recorded in the LLM log). */
    flowUuid?: string,
  ): Promise<ComposedAction>;
}
