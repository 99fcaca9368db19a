import { Type } from 'typebox';
import { DateTime, EmailText, Id, TimeZone, Uuid, withExample } from '../../http/schemas.js';
import { User } from '../identity/identity.schemas.js';
import { TEAM_ROLES } from '../identity/roles.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.js';

const Role = Type.Union([Type.Literal('owner'), Type.Literal('member')], {
  description: `One of ${TEAM_ROLES.join(', ')}. owner: manages members, invites, API keys and webhooks; member: the rest`,
});
const NewPassword = (description: string) =>
  Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH, description });
const SecretToken = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The token of the link (the part after #token=)',
});

export const TeamMembership = Type.Object({ id: Type.Integer(), name: Type.String(), role: Role });

export const Session = Type.Object({
  user: User,
  csrf_token: Type.String({
    description: 'Send it as the X-CSRF-Token header on every POST, PUT, PATCH and DELETE of this session',
  }),
  teams: Type.Array(TeamMembership, {
    description: 'Your teams in the order you joined them (first: default)',
  }),
});

export const SignInBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
  },
  { additionalProperties: false },
);
withExample(SignInBody, { email: 'owner@leadflow.local', password: 'correct horse battery staple' });

export const RedeemPasswordLinkBody = Type.Object(
  { token: SecretToken, password: NewPassword('The new password') },
  { additionalProperties: false },
);
withExample(RedeemPasswordLinkBody, { token: 'kq3...', password: 'correct horse battery staple' });

export const ChangePasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
    new_password: NewPassword('The new password; your other sessions end'),
  },
  { additionalProperties: false },
);
withExample(ChangePasswordBody, { current_password: 'old password 123', new_password: 'new password 456' });

export const SignedOut = Type.Object({ ended: Type.Integer({ description: 'Sessions ended' }) });

export const TeamIdParams = Type.Object({ id: Id({ description: 'Team id' }) });
export const MemberParams = Type.Object({
  id: Id({ description: 'Team id' }),
  user_id: Id({ description: 'User id of the member' }),
});
export const InviteParams = Type.Object({ id: Id({ description: 'Team id' }), uuid: Uuid('Invite UUID') });

export const UpdateTeamBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    timezone: Type.Optional(TimeZone({ description: 'Default time zone of schedules (IANA)' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
withExample(UpdateTeamBody, { name: 'Growth team', timezone: 'Europe/Berlin' });

export const Member = Type.Object({
  user_id: Type.Integer(),
  email: Type.String(),
  first_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.Union([Type.String(), Type.Null()]),
  role: Role,
  created_at: DateTime('When the user joined the team'),
});
export const MemberList = Type.Object({ data: Type.Array(Member) });

export const Invite = Type.Object({
  uuid: Uuid(),
  email: Type.String(),
  role: Role,
  created_at: DateTime(),
  expires_at: DateTime(),
});
export const InviteList = Type.Object({ data: Type.Array(Invite) });
export const CreatedInvite = Type.Object({
  ...Invite.properties,
  invite_url: Type.String({ description: 'The link to send to the invitee; shown only in this response' }),
});
export const CreateInviteBody = Type.Object(
  { email: EmailText({ minLength: 3, maxLength: 320 }), role: Type.Optional(Role) },
  { additionalProperties: false },
);
withExample(CreateInviteBody, { email: 'rep@example.com', role: 'member' });

export const InviteTokenBody = Type.Object({ token: SecretToken }, { additionalProperties: false });
withExample(InviteTokenBody, { token: 'kq3...' });
export const InviteInfo = Type.Object({
  team_name: Type.String(),
  email: Type.String(),
  role: Role,
  has_account: Type.Boolean({ description: 'The e-mail already signs in: accepting asks for that password' }),
});
export const AcceptInviteBody = Type.Object(
  {
    token: SecretToken,
    password: Type.String({
      minLength: 1,
      maxLength: MAX_PASSWORD_LENGTH,
      description: `The password of your existing account, or a new one (at least ${MIN_PASSWORD_LENGTH} characters)`,
    }),
    first_name: Type.Optional(Type.String({ maxLength: 200 })),
    last_name: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
withExample(AcceptInviteBody, {
  token: 'kq3...',
  password: 'correct horse battery staple',
  first_name: 'Ada',
});
