import type { FastifyInstance } from 'fastify';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { paths } from '#shared/routes.js';
import type { AppContext } from '#server/context.js';
import { translatorFor } from '#server/i18n/translator.js';
import type { AuthService } from '#server/modules/auth/auth.service.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { twoFactorNoticeMail, type TwoFactorChange } from '#server/modules/mail/templates/two-factor-notice.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { PasskeyService } from './passkeys.service.js';
import type { StepUpVerifier } from './step-up.js';
import { TwoFactorService, type TwoFactorEvent, type TwoFactorNotifier } from './totp.service.js';
import { registerTwoFactorRoutes } from './two-factor.routes.js';

/**
 * Two-factor sign-in: authenticator app, passkeys and recovery codes, as the second step of the auth
 * module's login, and the check behind every route declared `stepUp` (decision 0205), installed on
 * `stepUp`. The staff two-factor gate is a request guard (src/server/http/guards.ts).
 */
export function registerTwoFactorModule(
  api: FastifyInstance,
  ctx: AppContext,
  auth: AuthService,
  stepUp: { use(verify: StepUpVerifier): void },
  delivery: TwoFactorDelivery,
  notify: TwoFactorNotifier = mailNotifier(api, ctx, delivery),
): void {
  const twoFactor = new TwoFactorService({
    config: ctx.config,
    database: ctx.database,
    rateLimiter: ctx.rateLimiter,
    auth,
    notify,
    sessions: api.sessions,
  });
  const passkeys = new PasskeyService({ config: ctx.config, database: ctx.database, rateLimiter: ctx.rateLimiter, auth, notify });
  auth.useSecondStep((user, body) => twoFactor.loginChallenge(user, body));
  auth.useFactorCheck({
    methods: (userId) => twoFactor.signInMethods(userId),
    verify: (userId, code) => twoFactor.verifySignInCode(userId, code),
  });
  twoFactor.usePasskeySecondStep((tx, userId, response) =>
    passkeys.verifySecondStep(tx, userId, response as unknown as AuthenticationResponseJSON),
  );
  twoFactor.usePasskeyStepUp((tx, userId, sessionId, response) =>
    passkeys.verifyStepUp(tx, userId, sessionId, response as unknown as AuthenticationResponseJSON),
  );
  stepUp.use(({ userId, sessionId, fields }) => twoFactor.verifyStepUp(userId, sessionId, fields));
  // A password reset may remove every passkey (the reset page's box, checked by default).
  auth.usePasswordResetStep(async (tx, userId, choice) => {
    if (choice.removePasskeys) await passkeys.removeAll(tx, userId);
  });

  registerTwoFactorRoutes(api, ctx, twoFactor, passkeys);
}

/**
 * The security notices of decision 0140 (two-factor on or off, a recovery code used, a passkey added), as
 * mail to the account's address. Never awaited by the action and never fails it: a mail that cannot
 * be queued is logged (without codes or secrets) and dropped.
 */
type TwoFactorDelivery = { mail: MailService };

function mailNotifier(app: FastifyInstance, ctx: AppContext, { mail }: TwoFactorDelivery): TwoFactorNotifier {
  const changeOf = (event: TwoFactorEvent): TwoFactorChange => {
    switch (event.type) {
      case 'two-factor.enabled':
        return { kind: 'enabled' };
      case 'two-factor.disabled':
        return { kind: event.byAdmin ? 'disabled_by_admin' : 'disabled' };
      case 'two-factor.recovery-code-used':
        return { kind: 'recovery_code_used', codesLeft: event.codesLeft };
      case 'passkey.added':
        return { kind: 'passkey_added', passkeyName: event.name };
    }
  };
  return (event) => {
    app.log.info({ twoFactorEvent: event.type, userId: event.userId }, 'two-factor event');
    void (async () => {
      const user = await findUserById(ctx.database.db, event.userId);
      if (!user) return;
      const change = changeOf(event);
      // In the account's language (docs/decisions/0328); English keeps its short UTC form.
      const tr = translatorFor(user.locale);
      const now = new Date();
      const when = tr.locale === 'en' ? `${now.toISOString().replace('T', ' ').slice(0, 16)} UTC` : tr.dateTime(now);
      await mail.queueSafely(ctx.database.db, {
        userId: user.id,
        kind: 'two_factor_notice',
        to: user.email,
        mail: twoFactorNoticeMail(tr, { change, username: user.username, when, settingsUrl: mail.link(paths.settings) }),
      });
      await ctx.database.db.transaction((tx) =>
        ctx.events.emit(tx, {
          type: 'security.changed',
          userId: user.id,
          change: 'two_factor_changed',
          twoFactor: change,
        }),
      );
    })().catch((err: unknown) =>
      app.log.error({ err: { name: (err as Error)?.name }, twoFactorEvent: event.type }, 'two-factor notice could not be queued'),
    );
  };
}
