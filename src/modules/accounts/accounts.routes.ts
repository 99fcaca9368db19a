// Sign-in, sessions, password links, team settings, members and invites: what the web application needs
// that API-key clients did not. Public routes (sign-in, links, invites) are rate-limited per address.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authOf, SESSION_COOKIE } from '../../http/auth.js';
import { errorResponse } from '../../http/openapi.js';
import { NoContent } from '../../http/schemas.js';
import { AppError } from '../../lib/errors.js';
import {
  AcceptInviteBody,
  ChangePasswordBody,
  CreatedInvite,
  CreateInviteBody,
  InviteInfo,
  InviteList,
  InviteParams,
  InviteTokenBody,
  MemberList,
  MemberParams,
  RedeemPasswordLinkBody,
  Session,
  SignedOut,
  SignInBody,
  TeamIdParams,
  UpdateTeamBody,
} from './accounts.schemas.js';
import { type AccountsService, SESSION_DAYS } from './accounts.service.js';

type Options = { accounts: AccountsService; secureCookies: boolean; publicAttemptsPerMinute: number };

export const accountsRoutes: FastifyPluginAsyncTypebox<Options> = async (app, options) => {
  const { accounts } = options;
  const tags = ['Sign-in and members'];
  /** Guessing passwords or link tokens costs a request each: few per minute per address. */
  const publicRoute = {
    publicRoute: true,
    rateLimit: {
      max: options.publicAttemptsPerMinute,
      timeWindow: 60_000,
      allowList: () => false,
      keyGenerator: (request: FastifyRequest) => `public:${request.ip}`,
    },
  };
  const userAgent = (request: FastifyRequest) => request.headers['user-agent'] ?? null;

  function setSessionCookie(reply: FastifyReply, token: string) {
    reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      secure: options.secureCookies,
      sameSite: 'lax',
      path: '/',
      maxAge: SESSION_DAYS * 86_400,
    });
  }
  function sessionTokenOf(request: FastifyRequest): string {
    const token = request.cookies[SESSION_COOKIE];
    if (!token || authOf(request).apiKeyId !== null)
      throw new AppError('not_found', 'This request has no session: it was signed with an API key.');
    return token;
  }

  app.post(
    '/id/api/sessions',
    {
      config: publicRoute,
      schema: {
        tags,
        operationId: 'signIn',
        summary: 'Sign in with e-mail and password (sets the session cookie)',
        description:
          'Answers the session and sets an httpOnly cookie. A wrong e-mail or password is the same 401. ' +
          'Attempts are rate-limited per address.',
        security: [],
        body: SignInBody,
        response: { 201: Session },
      },
    },
    async (request, reply) => {
      const { token, body } = await accounts.signIn({ ...request.body, userAgent: userAgent(request) });
      setSessionCookie(reply, token);
      return reply.code(201).send(body);
    },
  );

  app.get(
    '/id/api/sessions/current',
    {
      schema: {
        tags,
        operationId: 'getSession',
        summary: 'The signed-in user, their teams and the CSRF token of this session',
        response: { 200: Session, 404: errorResponse(404, 'the request was signed with an API key') },
      },
    },
    async (request) => {
      const token = sessionTokenOf(request);
      const session = await accounts.identifySession(token);
      if (!session) throw new AppError('auth_exception', 'Your session has ended; sign in again.');
      return accounts.sessionView(session.userId, session.csrfToken);
    },
  );

  app.delete(
    '/id/api/sessions/current',
    {
      schema: {
        tags,
        operationId: 'signOut',
        summary: 'Sign out (ends this session, clears the cookie)',
        response: { 204: NoContent, 404: errorResponse(404, 'the request was signed with an API key') },
      },
    },
    async (request, reply) => {
      await accounts.signOut(sessionTokenOf(request));
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/id/api/sessions/sign-out-everywhere',
    {
      schema: {
        tags,
        operationId: 'signOutEverywhere',
        summary: 'End every session of the current user (every browser); API keys keep working',
        response: { 200: SignedOut },
      },
    },
    async (request, reply) => {
      const result = await accounts.signOutEverywhere(authOf(request).userId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return result;
    },
  );

  app.put(
    '/id/api/users/current/password',
    {
      schema: {
        tags,
        operationId: 'changePassword',
        summary: 'Change your password; your other sessions end',
        body: ChangePasswordBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const keepToken = authOf(request).apiKeyId === null ? request.cookies[SESSION_COOKIE] : undefined;
      await accounts.changePassword(authOf(request).userId, {
        current: request.body.current_password,
        next: request.body.new_password,
        keepToken,
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/id/api/password-links/redeem',
    {
      config: publicRoute,
      schema: {
        tags,
        operationId: 'redeemPasswordLink',
        summary: 'Set a password with a one-time link (first start or `leadflow admin reset-password`)',
        description:
          'Signs in (sets the session cookie). The link works once; other sessions of the user end.',
        security: [],
        body: RedeemPasswordLinkBody,
        response: { 201: Session, 404: errorResponse(404, 'the link was used, replaced or has expired') },
      },
    },
    async (request, reply) => {
      const { token, body } = await accounts.redeemPasswordLink({
        ...request.body,
        userAgent: userAgent(request),
      });
      setSessionCookie(reply, token);
      return reply.code(201).send(body);
    },
  );

  app.put(
    '/id/api/teams/:id',
    {
      schema: {
        tags,
        operationId: 'updateTeam',
        summary: 'Rename a team or set its time zone (owners)',
        params: TeamIdParams,
        body: UpdateTeamBody,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await accounts.requireOwner(authOf(request).userId, request.params.id);
      await accounts.updateTeam(request.params.id, request.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/id/api/teams/:id/members',
    {
      schema: {
        tags,
        operationId: 'listMembers',
        summary: 'Members of a team and their roles',
        params: TeamIdParams,
        response: { 200: MemberList },
      },
    },
    async (request) => {
      await accounts.requireMember(authOf(request).userId, request.params.id);
      return accounts.listMembers(request.params.id);
    },
  );

  app.delete(
    '/id/api/teams/:id/members/:user_id',
    {
      schema: {
        tags,
        operationId: 'removeMember',
        summary: 'Remove a member from a team (owners; a team keeps one owner)',
        description: 'Their API keys and sessions stop acting in this team at once.',
        params: MemberParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await accounts.requireOwner(authOf(request).userId, request.params.id);
      await accounts.removeMember(request.params.id, request.params.user_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/id/api/teams/:id/invites',
    {
      schema: {
        tags,
        operationId: 'listInvites',
        summary: 'Pending invites of a team (owners)',
        params: TeamIdParams,
        response: { 200: InviteList },
      },
    },
    async (request) => {
      await accounts.requireOwner(authOf(request).userId, request.params.id);
      return accounts.listInvites(request.params.id);
    },
  );

  app.post(
    '/id/api/teams/:id/invites',
    {
      schema: {
        tags,
        operationId: 'createInvite',
        summary: 'Invite someone to a team (owners); the link is shown once and lasts 14 days',
        params: TeamIdParams,
        body: CreateInviteBody,
        response: { 201: CreatedInvite },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      await accounts.requireOwner(auth.userId, request.params.id);
      const invite = await accounts.createInvite(request.params.id, auth.userId, {
        email: request.body.email,
        role: request.body.role ?? 'member',
      });
      return reply.code(201).send(invite);
    },
  );

  app.delete(
    '/id/api/teams/:id/invites/:uuid',
    {
      schema: {
        tags,
        operationId: 'revokeInvite',
        summary: 'Revoke a pending invite (owners)',
        params: InviteParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await accounts.requireOwner(authOf(request).userId, request.params.id);
      await accounts.revokeInvite(request.params.id, request.params.uuid);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/id/api/invites/lookup',
    {
      config: publicRoute,
      schema: {
        tags,
        operationId: 'lookUpInvite',
        summary: 'What an invite link is for (team, e-mail, whether that e-mail has an account)',
        security: [],
        body: InviteTokenBody,
        response: { 200: InviteInfo, 404: errorResponse(404, 'the invite was used, revoked or has expired') },
      },
    },
    async (request) => accounts.lookupInvite(request.body.token),
  );

  app.post(
    '/id/api/invites/accept',
    {
      config: publicRoute,
      schema: {
        tags,
        operationId: 'acceptInvite',
        summary: 'Accept an invite: join the team (creating your user) and sign in',
        security: [],
        body: AcceptInviteBody,
        response: { 201: Session, 404: errorResponse(404, 'the invite was used, revoked or has expired') },
      },
    },
    async (request, reply) => {
      const { token, body } = await accounts.acceptInvite({
        token: request.body.token,
        password: request.body.password,
        firstName: request.body.first_name,
        lastName: request.body.last_name,
        userAgent: userAgent(request),
      });
      setSessionCookie(reply, token);
      return reply.code(201).send(body);
    },
  );
};
