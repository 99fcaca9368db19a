// How the engine turns an action node's template into the text it sends: the variables of a batch's
// contacts and senders are loaded once, then each node renders synchronously. The renderer is a
// dependency so the engine uses the same one as the AI-template render endpoint.
import type { Executor } from '../../db/database.js';

/** `missing`: variables that printed blank; `error`: the template cannot be rendered at all. */
export type Rendered = { text: string | null; missing: string[]; error?: string };

export interface ActionRenderer {
  /** Prepares what templates of these contacts and senders can use (a few queries for all of them). */
  prepare(db: Executor, teamId: number, leadUuids: string[], senderUuids: string[]): Promise<PreparedRender>;
}

export interface PreparedRender {
  /** Renders `template` for one contact and sender; `seed` makes spintax choices repeatable. */
  render(
    template: string | null | undefined,
    leadUuid: string,
    senderUuid: string | null,
    seed: string,
  ): Rendered;
}
