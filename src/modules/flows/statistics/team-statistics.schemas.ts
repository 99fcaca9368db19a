import { Type } from 'typebox';
import { Nullable, TimeZone, Uuid, withExample } from '../../../http/schemas.js';

/** The longest period one request covers, in days. */
export const TEAM_STATISTICS_MAX_DAYS = 92;

const perDay = (description: string) =>
  Type.Record(Type.String(), Type.Array(Type.Integer()), {
    description: `${description}: per key, one number per day of \`days\``,
  });

export const TeamStatisticsBody = withExample(
  Type.Object(
    {
      from: Type.String({ format: 'date', description: 'First day (a local date in time_zone)' }),
      to: Type.String({
        format: 'date',
        description: `Last day, included (at most ${TEAM_STATISTICS_MAX_DAYS} days after from)`,
      }),
      time_zone: Type.Optional(TimeZone({ description: "Zone of the days (default: the team's)" })),
      flow_uuids: Type.Optional(
        Type.Array(Uuid(), {
          minItems: 1,
          maxItems: 100,
          uniqueItems: true,
          description: "Only these flows' actions and conversions (actions queued by hand are left out)",
        }),
      ),
      sender_profile_uuids: Type.Optional(
        Type.Array(Uuid(), {
          minItems: 1,
          maxItems: 200,
          uniqueItems: true,
          description: 'Only these senders',
        }),
      ),
      group_by: Type.Optional(
        Type.Union([Type.Literal('sender'), Type.Literal('flow'), Type.Literal('contact_source')], {
          default: 'sender',
          description: 'How conversions are grouped: per sender, per flow, or per contact source of a flow',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  { from: '2026-03-01', to: '2026-03-31', time_zone: 'Europe/Paris', group_by: 'sender' },
);

export const TeamStatistics = Type.Object(
  {
    time_zone: Type.String({ description: 'Zone of the days' }),
    days: Type.Array(Type.String({ format: 'date' }), { description: 'The days, in order' }),
    senders: Type.Array(
      Type.Object({
        sender_profile_uuid: Uuid('Sender profile'),
        name: Type.String({ description: 'Its name' }),
        status: Type.String({ description: 'enabled or disabled' }),
        actions: perDay('Actions handed to the channel, by action type (what counts against limits)'),
        daily_limits: perDay('Its daily limit on each day, by action type (warm-up included)'),
      }),
      { description: 'The senders asked for (default: every sender of the team), with or without actions' },
    ),
    conversions: Type.Array(
      Type.Object({
        sender_profile_uuid: Nullable(Uuid('Sender (group_by sender; null: before senders were recorded)')),
        flow_uuid: Nullable(Uuid('Flow (group_by flow or contact_source)')),
        contact_source_id: Nullable(
          Type.Integer({ description: 'Contact source (group_by contact_source)' }),
        ),
        channels: Type.Record(Type.String(), perDay('Kind (sent, accepted, replied, opened, ...)'), {
          description:
            'Per channel (linkedin_connection_request, linkedin_message, linkedin_inmail, email). Acceptance rate = ' +
            'linkedin_connection_request.accepted / .sent; reply rate = replied / sent over the message channels',
        }),
      }),
      { description: 'Conversions per group and day (to the hour they happened)' },
    ),
  },
  { description: 'Team analytics over a period' },
);
