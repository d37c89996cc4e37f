import type { LoginSecondStepBody, StepUpFields } from '#shared/schemas/two-factor.js';
import type { Config } from '#server/config.js';
import type { Database, Tx } from '#server/db/client.js';
import type { AuthService } from '#server/modules/auth/auth.service.js';
import type { SessionStore } from '#server/modules/auth/sessions.service.js';
import type { RateLimiter, RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import type { SecretBox } from '#server/secret-box.js';

export const TWO_FACTOR_RATE_LIMITS = {
  /** Second-step attempts per account, counted before the check and cleared by a success, like wrong passwords. */
  secondStepFailuresPerAccount: { name: 'login-2fa-fail:account', limit: 10, windowSeconds: 15 * 60 },
  /** Password and code checks in the two-factor settings. */
  settingsPerAccount: { name: '2fa-settings:account', limit: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;

/** Checks a passkey answer as the second step of a sign-in (passkeys.service.ts). */
export type PasskeySecondStep = (tx: Tx, userId: string, response: NonNullable<LoginSecondStepBody['passkey']>) => Promise<boolean>;
/** Checks a passkey answer to a step-up challenge of this session (passkeys.service.ts). */
export type PasskeyStepUp = (
  tx: Tx,
  userId: string,
  sessionId: string,
  response: NonNullable<StepUpFields['twoFactorAssertion']>,
) => Promise<boolean>;

/** Where the notification mails of decision 0130 go once mail exists (decision 0140). */
export type TwoFactorEvent =
  | { type: 'two-factor.enabled'; userId: string }
  | { type: 'two-factor.disabled'; userId: string; byAdmin: boolean }
  | { type: 'two-factor.recovery-code-used'; userId: string; codesLeft: number }
  | { type: 'passkey.added'; userId: string; name: string };
export type TwoFactorNotifier = (event: TwoFactorEvent) => void;

export interface TwoFactorServiceDeps {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  auth: AuthService;
  /** The security notices (mail, two-factor.routes.ts). Never awaited, never fails the action. */
  notify?: TwoFactorNotifier;
  /** Ends the other sessions when the authenticator app is turned on (decision 0206). */
  sessions?: SessionStore;
}

/**
 * What TwoFactorService hands its use-case files: its deps, the box that seals TOTP secrets, and the
 * passkey checks the module installs after construction (read when a check runs, so null until then).
 */
export interface TwoFactorParts {
  readonly deps: TwoFactorServiceDeps;
  readonly box: SecretBox;
  passkeySecondStep: PasskeySecondStep | null;
  passkeyStepUp: PasskeyStepUp | null;
}

export function notify(parts: TwoFactorParts, event: TwoFactorEvent): void {
  try {
    parts.deps.notify?.(event);
  } catch {
    // A notification never undoes or fails the action it reports.
  }
}
