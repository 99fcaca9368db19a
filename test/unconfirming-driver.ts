// A channel that always passes its irreversible step without a confirmation (`unconfirmed`) and whose
// outcome check answers what the test sets: for the never-twice tests of the engine and of queued messages.
import type { ChannelDriver, OutcomeCheck } from '../src/modules/channels/driver.js';

export function unconfirmingDriver() {
  const state = { performed: 0, checks: 0, answer: 'unknown' as OutcomeCheck };
  const driver: ChannelDriver = {
    name: 'unconfirming',
    async perform() {
      state.performed += 1;
      return { ok: false, reason: 'unconfirmed', message: 'Send was clicked; the thread never showed it.' };
    },
    async checkOutcome() {
      state.checks += 1;
      return state.answer;
    },
  };
  return { driver, state };
}
