// `leadflow demo`: a demo team whose flow runs on the sandbox LinkedIn network - a sender with a sandbox
// seat, 50 contacts and a started four-step flow (invite -> accepted trigger -> message -> end). It is
// built through the public API (the same calls the README shows), so it is also a worked example.
import type { FastifyInstance } from 'fastify';
import { AppError } from './lib/errors.js';

const FIRST = ['Ada', 'Bram', 'Chloe', 'Dario', 'Elif', 'Femi', 'Greta', 'Hiro', 'Ines', 'Jonas'];
const LAST = ['Novak', 'Okafor', 'Lindqvist', 'Moreau', 'Tanaka'];
const COMPANIES = ['Acme Robotics', 'Blue Fjord', 'Cobalt Labs', 'Dune Analytics', 'Evergreen Foods'];
const POSITIONS = ['Head of Sales', 'CTO', 'VP Marketing', 'Founder', 'Growth Lead'];

/** Every day, all day: the demo shows progress whatever the time. */
const ALL_WEEK = {
  timezone: 'UTC',
  use_lead_timezone: false,
  timeblocks: [0, 1, 2, 3, 4, 5, 6].map((dow) => ({ dow, min: 0, max: 1440 })),
};

function tree() {
  const edge = (node_id: number, branch_id = 1) => ({ node_id, branch_id });
  return [
    {
      id: 1,
      type: 'linkedin_send_connection_request',
      automation: 'auto',
      payload: {
        template: 'Hi {{first_name}}, I enjoyed your work at {{company_name}} - let us connect!',
        fallback_send: true,
        template_uuid: null,
      },
      delay_in_seconds: 0,
      before: [],
      after: [edge(2)],
    },
    {
      id: 2,
      type: 'trigger_linkedin_connection_request_accepted',
      automation: 'auto',
      payload: { subtasks: [{ type: 'util_timer', payload: { wait_time: 86_400 } }] },
      delay_in_seconds: 0,
      before: [edge(1)],
      after: [edge(3, 1), edge(4, 2)],
    },
    {
      id: 3,
      type: 'linkedin_send_message',
      automation: 'auto',
      payload: {
        template:
          'Thanks for connecting, {{first_name}}! {Would you be open to|Are you up for} a quick chat?',
        template_uuid: null,
        attachments: [],
        stop_on_reply_level: 'always',
      },
      delay_in_seconds: 10,
      before: [edge(2, 1)],
      after: [edge(4)],
    },
    {
      id: 4,
      type: 'end',
      automation: 'auto',
      payload: [],
      delay_in_seconds: 0,
      before: [edge(3), edge(2, 2)],
      after: [],
    },
  ];
}

export type DemoResult = {
  flowUuid: string;
  senderUuid: string;
  seatId: number;
  listUuid: string;
  contacts: number;
};

/** Builds the demo with `apiKey` (a fresh team's key) through `app`'s API. */
export async function buildDemo(app: FastifyInstance, apiKey: string): Promise<DemoResult> {
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<T> => {
    const res = await app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${apiKey}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    if (res.statusCode >= 300) {
      throw new AppError('internal_error', `demo: ${method} ${url} answered ${res.statusCode}: ${res.body}`);
    }
    return (res.body ? res.json() : undefined) as T;
  };
  const sender = await call<{ uuid: string }>('POST', '/flows/api/sender-profiles', {
    first_name: 'Dana',
    last_name: 'Demo',
    label: 'Demo sender (sandbox LinkedIn)',
    schedule: ALL_WEEK,
    limits: { linkedin_send_connection_request: 60, linkedin_send_message: 60 },
    action_interval_seconds: 10,
  });
  const seat = await call<{ id: number }>('POST', '/browsers/api/linkedin-browsers', {
    sender_profile_uuid: sender.uuid,
    driver: 'sandbox',
    name: 'Demo seat',
  });
  const list = await call<{ uuid: string }>('POST', '/leads/api/lists', { name: 'Demo contacts' });
  const leads = Array.from({ length: 50 }, (_, i) => {
    const first = FIRST[i % FIRST.length] as string;
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length] as string;
    return {
      first_name: first,
      last_name: last,
      company_name: COMPANIES[i % COMPANIES.length],
      position: POSITIONS[(i * 3) % POSITIONS.length],
      linkedin_id: `https://www.linkedin.com/in/demo-${first.toLowerCase()}-${last.toLowerCase()}-${i}`,
    };
  });
  await call('POST', '/leads/api/leads', { list_uuid: list.uuid, leads });
  const flow = await call<{ uuid: string }>('POST', '/flows/api/flows', {
    name: 'Demo: invite, wait for the acceptance, message',
    description: 'Created by `leadflow demo`; runs on the sandbox LinkedIn network.',
    use_sender_schedule: false,
    schedule: ALL_WEEK,
  });
  await call('POST', `/flows/api/flows/${flow.uuid}/flow-versions`, {
    nodes: tree(),
    first_common_node_id: 4,
    contact_sources: [
      {
        id: 1,
        name: 'Demo contacts',
        rotation_strategy: 'fair',
        sender_profiles: [sender.uuid],
        after_id: 1,
        mass_actions_filter: null,
        filter_tree_format: null,
      },
    ],
  });
  await call('PUT', `/flows/api/flows/${flow.uuid}/start`);
  await call('PUT', '/leads/api/leads/mass-action', {
    type: 'contact_add_to_flow',
    payload: { flow_uuid: flow.uuid },
    filter: { list_uuid: list.uuid },
  });
  return {
    flowUuid: flow.uuid,
    senderUuid: sender.uuid,
    seatId: seat.id,
    listUuid: list.uuid,
    contacts: leads.length,
  };
}

/** What to watch, with the key and the demo's ids filled in. */
export function demoInstructions(result: DemoResult, apiKey: string, baseUrl: string): string {
  const auth = `-H "Authorization: Bearer ${apiKey}"`;
  const json = '-H "Content-Type: application/json"';
  return [
    '',
    '  The demo is set up: a sender with a sandbox LinkedIn seat, 50 contacts and a started flow',
    '  (invite -> wait for the acceptance -> message -> end). The engine runs in `npm start`',
    '  (or `leadflow serve` / `leadflow worker`); the sandbox network accepts invitations and',
    '  replies within a minute.',
    '',
    `    API key (shown once): ${apiKey}`,
    `    flow: ${result.flowUuid}   sender: ${result.senderUuid}   seat: ${result.seatId}`,
    '',
    '  Watch it run:',
    `    curl -g ${auth} "${baseUrl}/flows/api/tasks?filter[flow_uuid]=${result.flowUuid}&limit=5"`,
    `    curl ${auth} ${json} -d '{"filter":{"flow_uuid":["${result.flowUuid}"]}}' ${baseUrl}/flows/api/flows-leads/list`,
    `    curl ${auth} ${json} -d '{"node_ids":[1,2,3,4]}' ${baseUrl}/flows/api/flows/${result.flowUuid}/statistics/nodes`,
    `    curl ${auth} ${json} -d '{"uuids":["${result.flowUuid}"]}' ${baseUrl}/flows/api/flows/metrics`,
    '  Webhooks: POST /integrations/api/webhooks with an event such as',
    '  contact_accepted_linkedin_connection_request and your receiver URL, then watch its deliveries.',
    '',
  ].join('\n');
}
