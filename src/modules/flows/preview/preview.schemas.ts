import { type Static, Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../http/schemas.js';
import { SaveVersionBody } from '../versions/versions.schemas.js';

export const PREVIEW_MAX_CONTACTS = 10_000;
export const PREVIEW_MAX_DAYS = 90;
export const PREVIEW_MAX_DETAIL = 200;

const rate = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const PreviewBody = Type.Object(
  {
    version: Type.Optional({
      ...SaveVersionBody,
      description:
        'A draft to preview (the body of POST /flows/api/flows/{uuid}/flow-versions, validated the same way: a 422 ' +
        "names every problem by node); without it the flow's active version",
    }),
    contacts: Type.Optional(
      Type.Array(Uuid(), {
        minItems: 1,
        maxItems: PREVIEW_MAX_CONTACTS,
        uniqueItems: true,
        description:
          "The contacts to run through the flow; without it a sample of the flow's sources (see sample)",
      }),
    ),
    contact_source_id: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2_147_483_647,
        description: 'The contact source `contacts` enter through (default: the first with an entry node)',
      }),
    ),
    sample: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: PREVIEW_MAX_CONTACTS,
        default: 100,
        description:
          "Without `contacts`: how many contacts to take - those the self-filling sources' filters select, else the " +
          "flow's enrolled contacts, else the team's newest contacts",
      }),
    ),
    days: Type.Optional(
      Type.Integer({ minimum: 1, maximum: PREVIEW_MAX_DAYS, default: 30, description: 'Simulated days' }),
    ),
    start_at: Type.Optional(DateTime('When the contacts enter (default: now)')),
    assumptions: Type.Optional(
      Type.Object(
        {
          accept_rate: Type.Optional(rate("Share of invitations accepted (default: the sandbox network's)")),
          reply_rate: Type.Optional(
            rate("Share of messages, InMails and e-mails answered (default: the sandbox's)"),
          ),
          min_response_hours: Type.Optional(
            Type.Number({ minimum: 0, maximum: 720, description: 'Earliest answer after an action, hours' }),
          ),
          max_response_hours: Type.Optional(
            Type.Number({ minimum: 0, maximum: 720, description: 'Latest answer after an action, hours' }),
          ),
          seed: Type.Optional(
            Type.Integer({
              minimum: 0,
              maximum: 2_147_483_647,
              description: 'Seed of who accepts and replies',
            }),
          ),
        },
        {
          additionalProperties: false,
          description: "How contacts answer (the sandbox network's settings by default)",
        },
      ),
    ),
    detail: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: PREVIEW_MAX_DETAIL,
        default: 20,
        description: 'How many contacts come back step by step with their rendered texts',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ sample: 100, days: 30, assumptions: { accept_rate: 0.4, reply_rate: 0.15 } }],
  },
);
export type PreviewBody = Static<typeof PreviewBody>;

const Count = (description: string) => Type.Integer({ description });
const Counts = (description: string) => Type.Record(Type.String(), Type.Integer(), { description });

const PreviewStep = Type.Object({
  node_id: Count('Node'),
  type: Type.String({ description: 'Node type' }),
  reached_at: DateTime('When the contact reached the node'),
  executed_at: Nullable(DateTime('When the step was done (an action: when it went out)')),
  status: Type.String({ description: 'Task status: closed, skipped, failed, in_progress (still waiting)' }),
  fork_result: Nullable(Type.Integer({ description: 'The branch taken' })),
  error_code: Nullable(Type.String({ description: 'Why it was skipped or failed' })),
  text: Nullable(Type.String({ description: 'The rendered text (action nodes)' })),
  subject: Nullable(Type.String({ description: 'The rendered subject (e-mail)' })),
  missing_variables: Type.Array(Type.String(), { description: 'Variables this contact has no value for' }),
});

export const PreviewResult = Type.Object(
  {
    flow_uuid: Uuid('The flow'),
    version: Type.String({ description: '"draft" (the body\'s version) or the active version\'s UUID' }),
    started_at: DateTime('When the contacts entered'),
    ends_at: DateTime('The end of the simulated period'),
    complete: Type.Boolean({ description: 'false when the time budget ran out first (see simulated_until)' }),
    simulated_until: DateTime('How far the simulation got'),
    assumptions: Type.Object(
      {
        accept_rate: Type.Number({ description: 'Share of invitations accepted' }),
        reply_rate: Type.Number({ description: 'Share of messages answered' }),
        min_response_hours: Type.Number({ description: 'Earliest answer, hours after the action' }),
        max_response_hours: Type.Number({ description: 'Latest answer, hours after the action' }),
        seed: Type.Integer({ description: 'Seed of who answers' }),
      },
      { description: 'The answer rates and delays the run used' },
    ),
    contacts: Type.Object(
      {
        total: Count('Contacts run'),
        source: Type.String({ description: 'contacts, filter_sources, enrolled or team' }),
        left_out: Count('Blacklisted contacts left out (they never enter a flow)'),
      },
      { description: 'The contacts run' },
    ),
    totals: Type.Object(
      {
        actions: Counts('Actions done, by type'),
        accepted: Count('Invitations accepted'),
        replied: Count('Contacts who replied'),
        statuses: Counts('Contacts by status at the end (in_progress, finished, failed, paused...)'),
        reasons: Counts('Ended or paused contacts by reason'),
        waiting_on_limits: Count('Actions ready at the end but held back by a daily or weekly limit'),
        last_finished_at: Nullable(
          DateTime('When the last contact finished (null while some are still in the flow)'),
        ),
      },
      { description: 'Over all contacts and days' },
    ),
    senders: Type.Array(
      Type.Object({
        uuid: Uuid('Sender'),
        name: Type.String({ description: 'Sender name' }),
        timezone: Type.String({ description: 'Its days are local days there' }),
        unavailable: Type.Array(Type.String(), { description: 'Channels it cannot act on, with why' }),
        days: Type.Array(
          Type.Object({
            date: Type.String({ description: 'Local date' }),
            actions: Counts('Actions done, by type'),
            limits: Counts('Daily limits that day, by type (warm-up included)'),
            waiting_on_limits: Count('Actions ready that day but left for a later day by a limit'),
          }),
          { description: 'Each local day of the simulated period' },
        ),
      }),
      { description: 'Per sender of the flow' },
    ),
    nodes: Type.Array(
      Type.Object({
        id: Count('Node'),
        type: Type.String({ description: 'Node type' }),
        reached: Count('Contacts that reached it'),
        statuses: Counts('Its tasks by status'),
        branches: Counts('Branch taken -> contacts'),
        first_at: Nullable(DateTime('First contact there')),
        median_at: Nullable(DateTime('Half the contacts that reach it are there by then')),
        last_at: Nullable(DateTime('Last contact there')),
        accepted: Count('Acceptances credited to it'),
        replied: Count('Replies credited to it'),
      }),
      { description: 'Per node of the version' },
    ),
    enrollments: Type.Array(
      Type.Object({
        lead_uuid: Uuid('Contact'),
        name: Nullable(Type.String({ description: 'Contact name' })),
        sender_profile_uuid: Nullable(Uuid('Sender assigned')),
        status: Type.String({ description: 'Status at the end' }),
        reason: Nullable(Type.String({ description: 'Why it ended or is paused' })),
        finished_at: Nullable(DateTime('When it ended')),
        steps: Type.Array(PreviewStep, { description: 'Its steps in order' }),
      }),
      { description: 'The first `detail` contacts, step by step' },
    ),
    warnings: Type.Array(Type.String(), { description: 'What the preview could not know or did not do' }),
    stats: Type.Object(
      {
        wall_ms: Count('Time the preview took'),
        simulation_ms: Count('Time of the simulation itself'),
        steps: Count('Node visits'),
        actions: Count('Actions'),
      },
      { description: 'What the run cost' },
    ),
  },
  { description: 'What the flow would do: nothing was sent and nothing was written' },
);
