// Shared by the engine's end-to-end flow tests (engine.flow*.test.ts): a harness on a fake clock with the
// sandbox LinkedIn network (every message answered), one sender with a sandbox seat, and helpers.
import {
  enroll,
  makeContacts,
  makeFlow,
  makeSandboxSeat,
  makeSender,
  type NodeSpec,
} from '../../../test/automation-factories.js';
import { createEngineHarness, type EngineHarness } from '../../../test/engine-harness.js';

export type FlowHarness = { h: EngineHarness; senderUuid: string };

export async function startFlowHarness(): Promise<FlowHarness> {
  const h = await createEngineHarness({ env: { LEADFLOW_SANDBOX_REPLY_RATE: '1' } });
  const sender = await makeSender(h.ctx.db, h.user.teamId);
  await makeSandboxSeat(h.ctx.db, h.user.teamId, sender.uuid);
  return { h, senderUuid: sender.uuid };
}

/** Helpers over the harness `get` returns once started. */
export function flowHelpers(get: () => FlowHarness) {
  const db = () => get().h.ctx.db;
  const team = () => get().h.user.teamId;

  async function enrollment(uuid: string) {
    return db().selectFrom('flow_leads').selectAll().where('uuid', '=', uuid).executeTakeFirstOrThrow();
  }

  async function tasksOf(flowLeadUuid: string) {
    return db()
      .selectFrom('tasks')
      .select(['type', 'status', 'fork_result', 'step', 'automation_error_code'])
      .where('flow_lead_uuid', '=', flowLeadUuid)
      .orderBy('step')
      .execute();
  }

  /** A flow with `nodes`, `count` fresh contacts enrolled now; returns the enrollments. */
  async function start(nodes: NodeSpec[], count = 1, name = 'Lead') {
    const flow = await makeFlow(db(), team(), { senders: [get().senderUuid], nodes });
    const leads = await makeContacts(db(), team(), count, name);
    const rows = await enroll(
      db(),
      team(),
      flow,
      leads.map((l) => l.uuid),
      { at: get().h.clock.now() },
    );
    return { flow, leads, rows };
  }

  const settled = (uuids: string[]) => async () => {
    const live = await db()
      .selectFrom('flow_leads')
      .select('uuid')
      .where('uuid', 'in', uuids)
      .where('status', 'in', ['in_progress', 'paused'])
      .execute();
    return live.length === 0;
  };

  return { db, team, enrollment, tasksOf, start, settled };
}
