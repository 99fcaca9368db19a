import { Type } from 'typebox';
import { DateTime, Envelope, Id, Nullable, SearchBody, Uuid } from '../../http/schemas.js';
import { SEAT_SORT } from './browsers.sort.js';

export const SEAT_DRIVERS = ['chromium', 'sandbox'] as const;
export const SEAT_STATUSES = [
  'running',
  'stopped',
  'idle',
  'start_issue',
  'running_issue',
  'login_issue',
  'initializing',
] as const;

export const Seat = Type.Object(
  {
    id: Type.Integer({ description: 'Seat id' }),
    team_id: Type.Integer(),
    sender_profile_uuid: Uuid('The sender profile that acts through this seat'),
    driver: Type.Enum([...SEAT_DRIVERS], {
      description: 'chromium: a real browser logged in to LinkedIn; sandbox: the simulated LinkedIn network',
    }),
    name: Nullable(Type.String()),
    status: Type.Enum([...SEAT_STATUSES], {
      description: 'Only a running seat acts; login_issue means the LinkedIn session needs a login',
    }),
    error_reason: Nullable(Type.String({ description: 'Why the seat is not running, when it is not' })),
    linkedin_account_uuid: Nullable(Uuid('Set once a LinkedIn account is connected')),
    user_id: Nullable(Type.Integer()),
    last_start_at: Nullable(DateTime()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'LinkedIn browser seat' },
);

export const SeatPage = Envelope(Seat);

export const CreateSeatBody = Type.Object(
  {
    sender_profile_uuid: Uuid('Sender profile the seat belongs to (one seat per sender)'),
    driver: Type.Optional(
      Type.Enum([...SEAT_DRIVERS], {
        default: 'chromium',
        description:
          'chromium (default): a real browser; sandbox: the simulated LinkedIn network for demos and tests (runs at once, no login)',
      }),
    ),
    name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  },
  {
    additionalProperties: false,
    examples: [
      { sender_profile_uuid: '0190a5f2-6c1e-7a3b-9c2d-1e2f3a4b5c6d', driver: 'sandbox', name: 'Demo seat' },
    ],
  },
);

/** Paging and sorting of the seat list (order_field: created_at, updated_at or id; default order asc). */
export const ListSeatsBody = SearchBody(SEAT_SORT);

export const SeatParams = Type.Object({
  id: Id({ description: 'Seat id' }),
});
