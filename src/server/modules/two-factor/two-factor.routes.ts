import { randomUUID } from 'node:crypto';
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
import type { AuthService } from '#server/modules/auth/auth.service.js';
import { requestMeta } from '#server/modules/auth/request-meta.js';
import { requireUserId } from '#server/modules/auth/auth.plugin.js';
import { addRouteCheck } from '#server/plugins/route-checks.js';
import { toUserDto } from '#server/modules/users/users.service.js';
import { userReadCache } from '#server/modules/users/user-read-cache.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { PasskeyService } from './passkeys.service.js';
import type { StepUpVerifier } from './step-up.js';
import { TwoFactorService, type TwoFactorEvent, type TwoFactorNotifier } from './totp.service.js';
import { hasSecondFactor } from '#server/modules/auth/two-factor-summary.js';
import { twoFactorNoticeMail, type TwoFactorNoticeKind } from '#server/modules/mail/templates/two-factor-notice.js';
import { paths } from '#shared/routes.js';

/**
 * The security notices of decision 0140 (two-factor on or off, a recovery code used, a passkey added), as
 * mail to the account's address. Never awaited by the action and never fails it: a mail that cannot
 * be queued is logged (without codes or secrets) and dropped.
 */
function mailNotifier(app: FastifyInstance, ctx: AppContext): TwoFactorNotifier {
  const noticeOf = (event: TwoFactorEvent): { kind: TwoFactorNoticeKind; facts: Array<[string, string]> } => {
    switch (event.type) {
      case 'two-factor.enabled':
        return { kind: 'enabled', facts: [] };
      case 'two-factor.disabled':
        return { kind: event.byAdmin ? 'disabled_by_admin' : 'disabled', facts: [] };
      case 'two-factor.recovery-code-used':
        return { kind: 'recovery_code_used', facts: [['Recovery codes left', String(event.codesLeft)]] };
      case 'passkey.added':
        return { kind: 'passkey_added', facts: [['Passkey', event.name]] };
    }
  };
  return (event) => {
    app.log.info({ twoFactorEvent: event.type, userId: event.userId }, 'two-factor event');
    void (async () => {
      const user = await findUserById(ctx.database.db, event.userId);
      if (!user) return;
      const { kind, facts } = noticeOf(event);
      const when = `${new Date().toISOString().replace('T', ' ').slice(0, 16)} UTC`;
      await ctx.mail.queueSafely(ctx.database.db, {
        userId: user.id,
        kind: 'two_factor_notice',
        to: user.email,
        mail: twoFactorNoticeMail({ kind, username: user.username, when, facts, settingsUrl: ctx.mail.link(paths.settings) }),
      });
      await ctx.notifications.emit(ctx.database.db, {
        to: { userId: user.id },
        event: 'security.two_factor_changed',
        key: `security.two_factor_changed:${user.id}:${randomUUID()}`,
        title: 'Two-factor authentication changed',
        body: `${kind.replace(/_/g, ' ')}${facts.length ? ` (${facts.map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}. If this was not you, change your password.`,
        link: paths.settings,
      });
    })().catch((err: unknown) => app.log.error({ err: { name: (err as Error)?.name }, twoFactorEvent: event.type }, 'two-factor notice could not be queued'));
  };
}

/**
 * Two-factor sign-in (decision 0140): settings, the second step of login, passkeys and the admin reset; and
 * the check behind every route declared `stepUp` (decision 0205), installed on `stepUp`.
 */
export function registerTwoFactor(
  app: FastifyInstance,
  ctx: AppContext,
  auth: AuthService,
  stepUp: { use(verify: StepUpVerifier): void },
  notify: TwoFactorNotifier = mailNotifier(app, ctx),
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const twoFactor = new TwoFactorService({ config: ctx.config, database: ctx.database, rateLimiter: ctx.rateLimiter, auth, notify, sessions: app.sessions });
  const passkeys = new PasskeyService({ config: ctx.config, database: ctx.database, rateLimiter: ctx.rateLimiter, auth, notify });
  auth.useSecondStep((user, body) => twoFactor.loginChallenge(user, body));
  auth.useFactorCheck({ methods: (userId) => twoFactor.signInMethods(userId), verify: (userId, code) => twoFactor.verifySignInCode(userId, code) });
  twoFactor.usePasskeySecondStep((tx, userId, response) => passkeys.verifySecondStep(tx, userId, response as unknown as AuthenticationResponseJSON));
  twoFactor.usePasskeyStepUp((tx, userId, sessionId, response) => passkeys.verifyStepUp(tx, userId, sessionId, response as unknown as AuthenticationResponseJSON));
  stepUp.use(({ userId, sessionId, fields }) => twoFactor.verifyStepUp(userId, sessionId, fields));

  const tags = ['two-factor'];
  const security = [{ bearer: [] }];
  const user = { auth: 'user' as const };

  // ---- Settings ------------------------------------------------------------------------------------------

  api.get(
    '/auth/2fa',
    { config: user, schema: { tags, summary: 'Whether two-factor is on (and required for staff)', security, response: { 200: twoFactorSettingsResponseSchema, ...errorResponses } } },
    async (request) => ({ twoFactor: await twoFactor.status(requireUserId(request)), requiredForStaff: ctx.config.raw.REQUIRE_STAFF_2FA === '1' }),
  );

  api.post(
    '/auth/2fa/totp/setup',
    {
      config: user,
      schema: { tags, summary: 'A new authenticator secret (nothing is on until enable)', security, body: totpSetupBodySchema, response: { 200: totpSetupResponseSchema, ...errorResponses } },
    },
    async (request) => twoFactor.setupTotp(requireUserId(request), request.body.currentPassword),
  );

  api.post(
    '/auth/2fa/totp/enable',
    {
      config: user,
      schema: {
        tags,
        summary: 'Turn the authenticator app on with its first code; answers 10 recovery codes and ends the other sessions unless signOutOtherSessions is false',
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
      schema: { tags, summary: 'Replace the recovery codes (password and second factor)', security, body: recoveryCodesBodySchema, response: { 200: recoveryCodesResponseSchema, ...errorResponses } },
    },
    async (request) => ({ recoveryCodes: await twoFactor.regenerateRecoveryCodes(requireUserId(request), request.body.currentPassword) }),
  );

  api.post(
    '/auth/2fa/disable',
    {
      config: { ...user, stepUp: true },
      schema: { tags, summary: 'Turn two-factor off (password and second factor)', security, body: twoFactorDisableBodySchema, response: { 200: twoFactorStatusResponseSchema, ...errorResponses } },
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
    { config: user, schema: { tags, summary: 'Options to create a passkey', security, response: { 200: webauthnOptionsResponseSchema, ...errorResponses } } },
    async (request) => ({ options: (await passkeys.registrationOptions(requireUserId(request))) as unknown as Record<string, unknown> }),
  );

  api.post(
    '/auth/2fa/passkeys',
    {
      config: user,
      schema: { tags, summary: 'Add a passkey', security, body: passkeyRegisterBodySchema, response: { 201: z.object({ passkey: passkeySchema }), ...errorResponses } },
    },
    async (request, reply) => {
      const passkey = await passkeys.register(requireUserId(request), request.body.name, request.body.response as unknown as RegistrationResponseJSON);
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
      schema: { tags, summary: 'Options to confirm a sensitive change with a passkey (bound to this session)', security, response: { 200: webauthnOptionsResponseSchema, ...errorResponses } },
    },
    async (request) => ({ options: (await passkeys.stepUpOptions(requireUserId(request), request.auth!.sessionId)) as unknown as Record<string, unknown> }),
  );

  // ---- Sign-in -------------------------------------------------------------------------------------------

  api.post(
    '/login/2fa',
    {
      schema: { tags, summary: 'The second step of a sign-in: a code, a recovery code or a passkey', body: loginSecondStepBodySchema, response: { 200: authResponseSchema, ...errorResponses } },
    },
    async (request) => {
      const { user: signedIn, token } = await twoFactor.completeLogin(request.body, requestMeta(request));
      return { user: toUserDto(signedIn), token };
    },
  );

  api.post(
    '/login/passkey/options',
    {
      schema: { tags, summary: 'Options to sign in with a passkey (alone, or as the second step of a challenge)', body: passkeyLoginOptionsBodySchema, response: { 200: webauthnOptionsResponseSchema, ...errorResponses } },
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
    { schema: { tags, summary: 'Sign in with a passkey alone', body: passkeyLoginBodySchema, response: { 200: authResponseSchema, ...errorResponses } } },
    async (request) => {
      const { user: signedIn, token } = await passkeys.login(
        { ...request.body, response: request.body.response as unknown as AuthenticationResponseJSON },
        requestMeta(request),
      );
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
      config: { auth: 'admin', audited: true },
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

  return { twoFactor, passkeys };
}

export const STAFF_TWO_FACTOR_REQUIRED = 'Set up two-factor sign-in (an authenticator app or a passkey) in Settings before using the staff console.';

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
      throw new AppError(403, 'TWO_FACTOR_REQUIRED', STAFF_TWO_FACTOR_REQUIRED);
    }
  }
}
