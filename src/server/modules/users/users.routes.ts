import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROLES, type Role } from '#shared/constants.js';
import { creditsResponseSchema, localeBodySchema, onboardingBodySchema, passwordSchema, userResponseSchema } from '#shared/schemas/auth.js';
import { errorResponses, idParamsSchema, isUuid, messageResponseSchema } from '#shared/schemas/common.js';
import { STEP_UP_FIELDS } from '#shared/schemas/two-factor.js';
import type { AppContext } from '#server/context.js';
import { forbidden, notFound, unauthorized } from '#server/errors.js';
import { findUserById, setOnboardingCompleted, setUserLocale, toUserDto } from './users.service.js';

export const changePasswordBodySchema = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(128),
  newPassword: passwordSchema,
  ...STEP_UP_FIELDS,
});

/** How the password is changed: the auth module's service does it (users sits below auth, so it only names the call). */
export interface PasswordChanger {
  changePassword(userId: string, sessionId: string, currentPassword: string, newPassword: string, meta: { ip: string }): Promise<unknown>;
}

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext, auth: PasswordChanger): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];
  const security = [{ bearer: [] }];

  api.get(
    '/users/:id/credits',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Credit balance (own account, or staff)',
        security,
        params: idParamsSchema,
        response: { 200: creditsResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.auth!;
      if (request.params.id !== caller.userId) {
        const me = await findUserById(ctx.database.db, caller.userId!);
        if (!me || !STAFF_ROLES.includes(me.role as Role)) throw forbidden();
      }
      const user = isUuid(request.params.id) ? await findUserById(ctx.database.db, request.params.id) : null;
      if (!user) throw notFound('User not found');
      return { credits: user.creditsCents / 100 };
    },
  );

  api.put(
    '/onboarding',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Mark onboarding completed',
        security,
        body: onboardingBodySchema,
        response: { 200: userResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await setOnboardingCompleted(ctx.database.db, request.auth!.userId!, request.body.completed);
      if (!user) throw unauthorized('User not found', 'USER_NOT_FOUND');
      return { user: toUserDto(user) };
    },
  );

  api.put(
    '/users/locale',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'Store the language the person chose (decision 0326)',
        security,
        body: localeBodySchema,
        response: { 200: userResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = await setUserLocale(ctx.database.db, request.auth!.userId!, request.body.locale);
      if (!user) throw unauthorized('User not found', 'USER_NOT_FOUND');
      return { user: toUserDto(user) };
    },
  );

  api.post(
    '/users/change-password',
    {
      config: { auth: 'user', stepUp: true },
      schema: {
        tags,
        summary: 'Change password (ends the other sessions; the second factor when two-factor is on)',
        security,
        body: changePasswordBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.auth!;
      await auth.changePassword(caller.userId!, caller.sessionId, request.body.currentPassword, request.body.newPassword, {
        ip: request.ip,
      });
      return { message: 'Password updated' };
    },
  );
}
