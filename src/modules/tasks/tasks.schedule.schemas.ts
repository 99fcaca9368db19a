// The day schedule of sender profiles (GET /tasks/api/schedule): when each profile's schedule is open,
// its warm-up share, the day's capacity per action type and its tasks of the day.
import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../http/schemas.js';
import { SENDER_ACTION_TYPES } from '../senders/sender-limits.js';

export const ScheduleQuery = Type.Object({
  sender_profile_uuid: Type.Optional(
    Uuid('The sender profile (left out: every sender profile of the team, answered as {data, truncated})'),
  ),
  date: Type.Optional(
    Type.String({
      format: 'date',
      description: 'The local date in each profile\u2019s time zone, yyyy-mm-dd (default: today there)',
    }),
  ),
});

const LocalTime = (description: string) =>
  Type.String({ description: `${description}, ISO 8601 in the profile\u2019s zone with its offset` });

export const SenderDay = Type.Object({
  sender_profile_uuid: Uuid('The sender profile'),
  date: Type.String({ description: 'The local date asked for' }),
  timezone: Type.String({ description: 'The profile\u2019s time zone' }),
  status: Type.String({ description: 'The profile\u2019s status (enabled, disabled)' }),
  hold_tasks_till: Nullable(DateTime('Its automation steps wait until then')),
  day: Type.Object(
    { start: DateTime('First instant of the day'), end: DateTime('First instant of the next day') },
    { description: 'The instants the local date begins and ends (23 or 25 hours apart on DST days)' },
  ),
  windows: Type.Array(
    Type.Object({
      start: DateTime('Window opens'),
      end: DateTime('Window closes'),
      local_start: LocalTime('Start'),
      local_end: LocalTime('End'),
    }),
    { description: 'When the profile\u2019s schedule is open that day' },
  ),
  warm_up: Type.Object(
    {
      smart_limits_enabled: Type.Boolean({ description: 'Whether the warm-up ramp applies' }),
      day: Type.Integer({ description: 'Local days since the profile was created (0 on that day)' }),
      share: Type.Number({
        description: 'Share of the daily limits in force that day (1 without smart limits)',
      }),
    },
    { description: 'Warm-up ramp of smart limits' },
  ),
  capacity: Type.Object(
    Object.fromEntries(
      SENDER_ACTION_TYPES.map((type) => [
        type,
        Type.Object({
          daily_limit: Type.Integer({ description: 'Limit of the day (after the warm-up ramp)' }),
          weekly_limit: Nullable(Type.Integer({ description: 'Rolling-week cap (connection requests)' })),
          used: Type.Integer({ description: 'Actions handed to the channel that day' }),
          used_this_week: Nullable(
            Type.Integer({ description: 'Actions in the 7 local days ending that day' }),
          ),
          planned: Type.Integer({ description: 'Tasks planned that day, not yet started' }),
          remaining: Type.Integer({ description: 'What the profile may still do that day' }),
        }),
      ]),
    ),
    { description: 'Per action type: the day\u2019s limit, usage and what is left' },
  ),
  tasks: Type.Array(
    Type.Object({
      uuid: Uuid('Task'),
      type: Type.String({ description: 'Task type' }),
      status: Type.String({ description: 'Task status' }),
      automation: Type.String({ description: 'manual or auto' }),
      lead_uuid: Uuid('Contact'),
      flow_uuid: Nullable(Uuid('Flow (null for a to-do)')),
      flow_node_id: Nullable(Type.Integer({ description: 'Flow node' })),
      state: Type.Enum(['done', 'executing', 'planned'], {
        description: 'done (executed that day), executing (handed to its channel), planned (due that day)',
      }),
      at: DateTime('When it was done, or is planned'),
      local_time: LocalTime('The same time'),
    }),
    { description: 'The profile\u2019s tasks of the day, in time order' },
  ),
  tasks_truncated: Type.Boolean({ description: 'More than 2,000 tasks that day: the list stops there' }),
});

export const TeamDay = Type.Object(
  {
    data: Type.Array(SenderDay, { description: 'Each sender profile\u2019s day, oldest profile first' }),
    truncated: Type.Boolean({
      description: 'The team has more than 100 sender profiles: the list stops there',
    }),
  },
  { title: 'TeamDay' },
);
