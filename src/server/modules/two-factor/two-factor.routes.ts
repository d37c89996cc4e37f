import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authResponseSchema } from '#shared/schemas/auth.js';
import { errorResponses, messageResponseSchema, uuidParamsSchema } from '#shared/schemas/common.js';
import {
  adminTwoFactorResetBodySchema,
  loginSecondStepBodySchema,
  passkeyListResponseSchema,
  passkeyLoginBodySchema,
  passkeyLoginOptionsBodySchema,
  passkeyOptionsBodySchema,
  passkeyRegisterBodySchema,
  passkeySchema,
  recoveryCodesBodySchema,
  recoveryCodesResponseSchema,
  stepUpBodySchema,
  totpEnableBodySchema,
  totpSetupBodySchema,
  totpSetupResponseSchema,
  twoFactorDisableBodySchema,
  twoFactorSettingsResponseSchema,
  twoFactorStatusResponseSchema,
  webauthnOptionsResponseSchema,
} from '#shared/schemas/two-factor.js';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AppContext } from '#server/context.js';
import { AppError, unauthorized } from '#server/errors.js';
import { rememberDevice, requestMeta } from '#server/modules/auth/request-meta.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { addRouteCheck } from '#server/plugins/route-checks.js';
import { toUserDto } from '#server/modules/users/users.service.js';
import { userReadCache } from '#server/modules/users/user-read-cache.js';
import { findUserById } from '#server/modules/users/users.service.js';
import type { PasskeyService } from './passkeys.service.js';
import type { TwoFactorService } from './totp.service.js';
import { hasSecondFactor } from '#server/modules/auth/two-factor-summary.js';

/**
 * Two-factor sign-in (decision 0140): settings, the second step of login, passkeys and the admin reset.
 * The services and their wiring into the auth module are built in two-factor.module.ts.
 */
export function registerTwoFactorRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  twoFactor: TwoFactorService,
  passkeys: PasskeyService,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['two-factor'];
  const security = [{ bearer: [] }];
  const user = { auth: 'user' as const };

  // ---- Settings ------------------------------------------------------------------------------------------

  api.get(
    '/auth/2fa',
    {
      config: user,
      schema: {
        tags,
        summary: 'Whether two-factor is on (and required for staff)',
        security,
        response: { 200: twoFactorSettingsResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      twoFactor: await twoFactor.status(requireUserId(request)),
      requiredForStaff: ctx.config.raw.REQUIRE_STAFF_2FA === '1',
    }),
  );

  api.post(
    '/auth/2fa/totp/setup',
    {
      config: user,
      schema: {
        tags,
        summary: 'A new authenticator secret (nothing is on until enable)',
        security,
        body: totpSetupBodySchema,
        response: { 200: totpSetupResponseSchema, ...errorResponses },
      },
    },
    async (request) => twoFactor.setupTotp(requireUserId(request), request.body.currentPassword),
  );

  api.post(
    '/auth/2fa/totp/enable',
    {
      config: user,
      schema: {
        tags,
        summary:
          'Turn the authenticator app on with its first code; answers 10 recovery codes and ends the other sessions unless signOutOtherSessions is false',
        security,
        body: totpEnableBodySchema,
        response: { 200: recoveryCodesResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      recoveryCodes: await twoFactor.enableTotp(requireUserId(request), request.body.code, {
        currentSessionId: request.auth!.sessionId,
        signOutOtherSessions: request.body.signOutOtherSessions,
      }),
    }),
  );

  api.post(
    '/auth/2fa/recovery-codes',
    {
      config: { ...user, stepUp: true },
      schema: {
        tags,
        summary: 'Replace the recovery codes (password and second factor)',
        security,
        body: recoveryCodesBodySchema,
        response: { 200: recoveryCodesResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ recoveryCodes: await twoFactor.regenerateRecoveryCodes(requireUserId(request), request.body.currentPassword) }),
  );

  api.post(
    '/auth/2fa/disable',
    {
      config: { ...user, stepUp: true },
      schema: {
        tags,
        summary: 'Turn two-factor off (password and second factor)',
        security,
        body: twoFactorDisableBodySchema,
        response: { 200: twoFactorStatusResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ twoFactor: await twoFactor.disable(requireUserId(request), request.body.currentPassword) }),
  );

  // ---- Passkeys in settings ------------------------------------------------------------------------------

  api.get(
    '/auth/2fa/passkeys',
    { config: user, schema: { tags, summary: 'My passkeys', security, response: { 200: passkeyListResponseSchema, ...errorResponses } } },
    async (request) => ({
      passkeys: await passkeys.list(requireUserId(request)),
      available: passkeys.unavailableReason === null,
      reason: passkeys.unavailableReason,
    }),
  );

  api.post(
    '/auth/2fa/passkeys/options',
    {
      // A new way into the account: the password, and the second factor when two-factor is on (decision 0205).
      config: { ...user, stepUp: true },
      schema: {
        tags,
        summary: 'Options to create a passkey (password, and the second factor when two-factor is on); valid for this session only',
        security,
        body: passkeyOptionsBodySchema,
        response: { 200: webauthnOptionsResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      const userId = requireUserId(request);
      await twoFactor.confirmPassword(userId, request.body.currentPassword);
      return { options: (await passkeys.registrationOptions(userId, request.auth!.sessionId)) as unknown as Record<string, unknown> };
    },
  );

  api.post(
    '/auth/2fa/passkeys',
    {
      config: user,
      schema: {
        tags,
        summary: 'Add a passkey',
        security,
        body: passkeyRegisterBodySchema,
        response: { 201: z.object({ passkey: passkeySchema }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const passkey = await passkeys.register(
        requireUserId(request),
        request.auth!.sessionId,
        request.body.name,
        request.body.response as unknown as RegistrationResponseJSON,
      );
      return reply.status(201).send({ passkey });
    },
  );

  api.delete(
    '/auth/2fa/passkeys/:id',
    {
      config: { ...user, stepUp: true },
      schema: {
        tags,
        summary: 'Remove a passkey (second factor in the body)',
        security,
        params: uuidParamsSchema('Unknown passkey'),
        body: stepUpBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await passkeys.remove(requireUserId(request), request.params.id);
      return { message: 'Passkey removed' };
    },
  );

  // ---- Step-up -------------------------------------------------------------------------------------------

  api.post(
    '/two-factor/step-up/passkey-options',
    {
      config: user,
      schema: {
        tags,
        summary: 'Options to confirm a sensitive change with a passkey (bound to this session)',
        security,
        response: { 200: webauthnOptionsResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({
      options: (await passkeys.stepUpOptions(requireUserId(request), request.auth!.sessionId)) as unknown as Record<string, unknown>,
    }),
  );

  // ---- Sign-in -------------------------------------------------------------------------------------------

  api.post(
    '/login/2fa',
    {
      schema: {
        tags,
        summary: 'The second step of a sign-in: a code, a recovery code or a passkey',
        body: loginSecondStepBodySchema,
        response: { 200: authResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const meta = requestMeta(request);
      const { user: signedIn, token } = await twoFactor.completeLogin(request.body, meta);
      rememberDevice(request, reply, meta);
      return { user: toUserDto(signedIn), token };
    },
  );

  api.post(
    '/login/passkey/options',
    {
      schema: {
        tags,
        summary: 'Options to sign in with a passkey (alone, or as the second step of a challenge)',
        body: passkeyLoginOptionsBodySchema,
        response: { 200: webauthnOptionsResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      let userId: string | null = null;
      if (request.body.challenge) {
        const challenge = await twoFactor.liveChallenge(ctx.database.db, request.body.challenge);
        if (!challenge) throw unauthorized('This sign-in has expired. Enter your password again.', 'CHALLENGE_EXPIRED');
        userId = challenge.userId;
      }
      return { options: (await passkeys.authenticationOptions(userId)) as unknown as Record<string, unknown> };
    },
  );

  api.post(
    '/login/passkey',
    {
      schema: {
        tags,
        summary: 'Sign in with a passkey alone',
        body: passkeyLoginBodySchema,
        response: { 200: authResponseSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const meta = requestMeta(request);
      const { user: signedIn, token } = await passkeys.login(
        { ...request.body, response: request.body.response as unknown as AuthenticationResponseJSON },
        meta,
      );
      rememberDevice(request, reply, meta);
      return { user: toUserDto(signedIn), token };
    },
  );

  // ---- Staff console -------------------------------------------------------------------------------------

  api.get(
    '/admin/users/:id/two-factor',
    {
      config: { auth: 'staff' },
      schema: {
        tags: ['operator console'],
        summary: "Whether a user's two-factor is on",
        security,
        params: uuidParamsSchema('Unknown user'),
        response: { 200: twoFactorStatusResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ twoFactor: await twoFactor.status(request.params.id) }),
  );

  api.post(
    '/admin/users/:id/two-factor/reset',
    {
      // Weakens someone else's security: the admin's own second factor (docs/security.md#staff-powers).
      config: { auth: 'admin', audited: true, stepUp: true },
      schema: {
        tags: ['operator console'],
        summary: "Turn off a user's two-factor (authenticator, recovery codes and passkeys) after checking who they are",
        security,
        params: uuidParamsSchema('Unknown user'),
        body: adminTwoFactorResetBodySchema,
        response: { 200: twoFactorStatusResponseSchema, ...errorResponses },
      },
    },
    async (request) => ({ twoFactor: await twoFactor.adminReset(requireUserId(request), request.params.id, request.body.reason) }),
  );
}

export const STAFF_TWO_FACTOR_REQUIRED =
  'Set up two-factor sign-in (an authenticator app or a passkey) in Settings before using the staff console.';

/**
 * REQUIRE_STAFF_2FA=1: support and admin accounts reach staff routes only with two-factor set up. Runs
 * after the auth hook has resolved the caller and checked the role.
 */
export function registerStaffTwoFactorGate(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.raw.REQUIRE_STAFF_2FA !== '1') return;
  // Attached to staff and admin routes only, after the auth check (registered before this).
  app.addHook('onRoute', (route) => {
    const requirement = (route.config as { auth?: string } | undefined)?.auth;
    if (requirement !== 'staff' && requirement !== 'admin') return;
    addRouteCheck(route, (request, _reply, done) => {
      requireSecondFactor(request.auth?.userId ?? null).then(() => done(), done);
    });
  });
  async function requireSecondFactor(userId: string | null): Promise<void> {
    if (!userId) return;
    const row = await userReadCache.get(userId, (id) => findUserById(ctx.database.db, id));
    if (!row) return;
    if (!(await hasSecondFactor(ctx.database.db, userId))) {
      throw new AppError('TWO_FACTOR_REQUIRED', STAFF_TWO_FACTOR_REQUIRED);
    }
  }
}
