// The schedule object of flows and sender profiles on the wire (checks JSON Schema cannot state live in
// src/lib/schedule.ts: call assertValidSchedule after validation).
import { type Static, Type } from 'typebox';
import { TimeZone } from './schemas.js';

export const TimeBlockSchema = Type.Object(
  {
    dow: Type.Integer({
      minimum: 0,
      maximum: 6,
      description: 'Day of the week, 0 = Sunday ... 6 = Saturday',
    }),
    min: Type.Integer({ minimum: 0, maximum: 1439, description: 'Start, minutes from local midnight' }),
    max: Type.Integer({
      minimum: 1,
      maximum: 1440,
      description: 'End (exclusive), minutes from local midnight; greater than min',
    }),
  },
  { additionalProperties: false },
);

export const ScheduleSchema = Type.Object(
  {
    timezone: TimeZone({
      minLength: 1,
      description: 'IANA time zone, e.g. "Europe/Berlin"',
      examples: ['Europe/Berlin'],
    }),
    use_lead_timezone: Type.Boolean({
      default: false,
      description: "Plan each contact's steps in the contact's own time zone when it is known",
    }),
    timeblocks: Type.Array(TimeBlockSchema, {
      maxItems: 70,
      description: 'When actions may run: wall-clock minute ranges per weekday in the time zone',
    }),
  },
  {
    additionalProperties: false,
    description: 'Weekly schedule: actions run only inside these blocks',
    examples: [
      {
        timezone: 'Europe/Berlin',
        use_lead_timezone: false,
        timeblocks: [1, 2, 3, 4, 5].map((dow) => ({ dow, min: 540, max: 1080 })),
      },
    ],
  },
);

/**
 * The schedule a request sends: use_lead_timezone may be left out. The validator fills in its default
 * (false), so handlers still see the whole schedule (hence the static type).
 */
export const ScheduleInput = Type.Unsafe<Static<typeof ScheduleSchema>>({
  ...ScheduleSchema,
  required: ['timezone', 'timeblocks'],
});
