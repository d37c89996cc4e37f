import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authResponseSchema,
  csrfResponseSchema,
  guestResponseSchema,
  loginBodySchema,
  meResponseSchema,
  registerBodySchema,
  sessionListResponseSchema,
  tokenResponseSchema,
} from '#shared/schemas/auth.js';
import { errorResponses, messageResponseSchema, uuidParamsSchema } from '#shared/schemas/common.js';
import { twoFactorChallengeResponseSchema } from '#shared/schemas/two-factor.js';
import { twoFactorStatusCached } from './two-factor-summary.js';
import type { AppContext } from '#server/context.js';
import { forbidden, notFound, unauthorized } from '#server/errors.js';
import { findUserById, toUserDto } from '#server/modules/users/users.service.js';
import type { AuthService } from './auth.service.js';
import { rememberDevice, requestMeta } from './request-meta.js';
import { userReadCache } from '#server/modules/users/user-read-cache.js';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext, auth: AuthService): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  api.post(
    '/guest',
    { schema: { tags, summary: 'Start a guest session', response: { 201: guestResponseSchema, ...errorResponses } } },
    async (request, reply) => {
      const meta = requestMeta(request);
      const guest = await auth.startGuest(meta);
      rememberDevice(request, reply, meta);
      return reply.status(201).send(guest);
    },
  );

  api.post(
    '/register',
    {
      schema: {
        tags,
        summary: 'Create an account',
        body: registerBodySchema,
        response: { 201: authResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const meta = requestMeta(request);
      const { user, token } = await auth.register(request.body, meta);
      rememberDevice(request, reply, meta);
      return reply.status(201).send({ user: toUserDto(user), token });
    },
  );

  api.post(
    '/login',
    {
      schema: {
        tags,
        summary: 'Sign in (with two-factor on: a challenge for POST /api/login/2fa, no token)',
        body: loginBodySchema,
        response: { 200: z.union([authResponseSchema, twoFactorChallengeResponseSchema]), ...errorResponses },
      },
    },
    async (request, reply) => {
      const meta = requestMeta(request);
      const result = await auth.login(request.body, meta);
      // A challenge is not a session yet: the device cookie comes with the second step's.
      if ('twoFactorRequired' in result) return result;
      rememberDevice(request, reply, meta);
      return { user: toUserDto(result.user), token: result.token };
    },
  );

  api.post(
    '/refresh-token',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'Re-issue the token of the current session',
        security: [{ bearer: [] }],
        response: { 200: tokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = request.auth!;
      if (session.isGuest || !session.userId) throw forbidden('Guest sessions do not refresh tokens');
      return { token: await auth.refresh(session.sessionId, session.userId) };
    },
  );

  api.post(
    '/logout',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'End the current session',
        security: [{ bearer: [] }],
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.sessions.revoke(ctx.database.db, request.auth!.sessionId);
      return { message: 'Logout successful' };
    },
  );

  api.get(
    '/auth/me',
    {
      config: { auth: 'session' },
      schema: {
        tags,
        summary: 'The signed-in user or guest',
        security: [{ bearer: [] }],
        response: { 200: meResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = request.auth!;
      if (session.isGuest) return { user: { _id: session.guestId!, role: 'guest' as const, isGuest: true as const } };
      // Cached per instance (user-read-cache.ts, decision 0170): every signed-in page view asks this.
      const user = await userReadCache.get(session.userId!, (id) => findUserById(ctx.database.db, id));
      if (!user || user.disabledAt) throw unauthorized('User not found', 'USER_NOT_FOUND');
      return { user: { ...toUserDto(user), twoFactor: await twoFactorStatusCached(ctx.database.db, user.id) } };
    },
  );

  api.get(
    '/auth/sessions',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'My active sessions',
        security: [{ bearer: [] }],
        response: { 200: sessionListResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const rows = await app.sessions.listActiveForUser(request.auth!.userId!);
      return {
        sessions: rows.map((s) => ({
          _id: s.id,
          createdAt: s.createdAt.toISOString(),
          lastSeenAt: s.lastSeenAt.toISOString(),
          expiresAt: s.expiresAt.toISOString(),
          userAgent: s.userAgent,
          ip: s.ip,
          current: s.id === request.auth!.sessionId,
        })),
      };
    },
  );

  api.delete(
    '/auth/sessions/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'End one of my sessions',
        security: [{ bearer: [] }],
        params: uuidParamsSchema('Unknown session'),
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const mine = await app.sessions.listActiveForUser(request.auth!.userId!);
      if (!mine.some((s) => s.id === request.params.id)) throw notFound('Session not found');
      await app.sessions.revoke(ctx.database.db, request.params.id);
      return { message: 'Session ended' };
    },
  );

  api.get(
    '/csrf-token',
    {
      schema: {
        tags,
        summary: 'A CSRF token (the API authenticates by bearer token, not cookies)',
        response: { 200: csrfResponseSchema, ...errorResponses },
      },
    },
    async (_request, reply) => {
      const csrfToken = randomBytes(24).toString('base64url');
      reply.header('Set-Cookie', `csrf=${csrfToken}; Path=/; SameSite=Lax; HttpOnly${ctx.config.env === 'production' ? '; Secure' : ''}`);
      return { csrfToken };
    },
  );
}
