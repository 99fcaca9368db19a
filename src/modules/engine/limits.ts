// The sender's limits as the dispatcher asks for them: the senders module's targets, warm-up ramp and
// weekly cap. A comment on a post counts against the likes limit (the hosted service has no separate one).
import {
  effectiveDailyLimit,
  isSenderActionType,
  type SenderActionType,
  weeklyLimit,
} from '../senders/sender-limits.js';
import type { SenderLimits } from './run/dispatch-guards.js';

export const senderActionLimits: SenderLimits = (sender, action, localDate) => {
  const type: SenderActionType = isSenderActionType(action) ? action : 'linkedin_like_latest_post';
  return { daily: effectiveDailyLimit(sender, type, localDate), weekly: weeklyLimit(sender, type) };
};
