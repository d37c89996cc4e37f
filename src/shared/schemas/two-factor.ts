import { emptyAsAbsent } from './common.js';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '#shared/constants.js';
import { guestIdSchema } from './auth.js';

/** Two-factor sign-in (decision 0140): authenticator app (TOTP), recovery codes and passkeys. */

export const TWO_FACTOR_METHODS = ['totp', 'recovery', 'passkey'] as const;
export type TwoFactorMethod = (typeof TWO_FACTOR_METHODS)[number];

export const RECOVERY_CODE_COUNT = 10;

export const twoFactorStatusSchema = z
  .object({ totp: z.boolean(), passkeys: z.number().int(), recoveryCodesLeft: z.number().int() })
  .meta({ id: 'TwoFactorStatus' });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

const currentPasswordSchema = z
  .string({ error: 'Current password is required' })
  .min(1, 'Current password is required')
  .max(PASSWORD_MAX_LENGTH);

/** Six digits; spaces a person types or pastes are ignored. */
export const totpCodeSchema = z
  .string({ error: 'Enter the 6-digit code' })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'));

/** `xxxx-xxxx-xxxx`; case, spaces and dashes are ignored. */
export const recoveryCodeSchema = z
  .string({ error: 'Enter a recovery code' })
  .max(64, 'That is not a recovery code')
  .transform((v) => v.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z2-7]{12}$/, 'That is not a recovery code'));

/** Browser WebAuthn answers (from @simplewebauthn/browser), checked in depth by @simplewebauthn/server. */
export const webauthnResponseSchema = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.string().optional(),
  })
  .loose();

/**
 * A second factor carried by a sensitive change (decision 0205): a code from the authenticator app or a
 * recovery code in `twoFactorCode`, or a passkey answer in `twoFactorAssertion` (to the options of
 * POST /api/two-factor/step-up/passkey-options). Every body of a route declared `stepUp` spreads these
 * fields (`STEP_UP_FIELDS`); the server refuses to start if one does not.
 */
export const stepUpFieldsSchema = z.object({
  twoFactorCode: emptyAsAbsent(
    z.string({ error: 'Enter a code from your authenticator app or a recovery code' }).trim().max(64, 'That code is not valid'),
  ),
  twoFactorAssertion: webauthnResponseSchema.optional(),
});
export type StepUpFields = z.infer<typeof stepUpFieldsSchema>;
export const STEP_UP_FIELDS = stepUpFieldsSchema.shape;

/** A body that is only the second factor (removing a passkey, revoking a key, rotating a secret); may be absent. */
export const stepUpBodySchema = emptyAsAbsent(stepUpFieldsSchema);

/** What a `403 TWO_FACTOR_REQUIRED` of a sensitive change says in `details`: the methods the account has. */
export const stepUpRequiredDetailsSchema = z.object({ methods: z.array(z.enum(TWO_FACTOR_METHODS)) });
export type StepUpRequiredDetails = z.infer<typeof stepUpRequiredDetailsSchema>;

export const totpSetupBodySchema = z.object({ currentPassword: currentPasswordSchema });
export const totpSetupResponseSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpSetupResponse = z.infer<typeof totpSetupResponseSchema>;

/** Turning the app on ends every other session unless the person unticks it (decision 0206). */
export const totpEnableBodySchema = z.object({ code: totpCodeSchema, signOutOtherSessions: z.boolean().default(true) });
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;
export const recoveryCodesBodySchema = z.object({ currentPassword: currentPasswordSchema, ...STEP_UP_FIELDS });

/** Disabling needs the password and, like every sensitive change, the second factor (`stepUpFieldsSchema`). */
export const twoFactorDisableBodySchema = z.object({ currentPassword: currentPasswordSchema, ...STEP_UP_FIELDS });

export const twoFactorStatusResponseSchema = z.object({ twoFactor: twoFactorStatusSchema });
/** GET /api/auth/2fa also says whether staff must have two-factor (REQUIRE_STAFF_2FA). */
export const twoFactorSettingsResponseSchema = z.object({ twoFactor: twoFactorStatusSchema, requiredForStaff: z.boolean() });
export type TwoFactorSettingsResponse = z.infer<typeof twoFactorSettingsResponseSchema>;

/** What POST /api/login answers instead of `{ user, token }` when the account has two-factor on. */
export const twoFactorChallengeResponseSchema = z
  .object({ twoFactorRequired: z.literal(true), challenge: z.string(), methods: z.array(z.enum(TWO_FACTOR_METHODS)) })
  .meta({ id: 'TwoFactorChallenge' });
export type TwoFactorChallengeResponse = z.infer<typeof twoFactorChallengeResponseSchema>;

const challengeTokenSchema = z.string({ error: 'The sign-in challenge is missing' }).min(1).max(200);

export const loginSecondStepBodySchema = z
  .object({
    challenge: challengeTokenSchema,
    code: z.string().max(64).optional(),
    recoveryCode: z.string().max(64).optional(),
    passkey: webauthnResponseSchema.optional(),
  })
  .refine((b) => [b.code, b.recoveryCode, b.passkey].filter((v) => v !== undefined).length === 1, {
    message: 'Send one of code, recoveryCode or passkey',
    path: ['code'],
  });
export type LoginSecondStepBody = z.infer<typeof loginSecondStepBodySchema>;

// ---- Passkeys ------------------------------------------------------------------------------------------

export const passkeySchema = z
  .object({ _id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable(), backedUp: z.boolean() })
  .meta({ id: 'Passkey' });
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyListResponseSchema = z.object({
  passkeys: z.array(passkeySchema),
  available: z.boolean(),
  reason: z.string().nullable(),
});
export type PasskeyListResponse = z.infer<typeof passkeyListResponseSchema>;

export const passkeyNameSchema = z
  .string({ error: 'Name the passkey' })
  .trim()
  .min(1, 'Name the passkey')
  .max(60, 'Use at most 60 characters');

export const passkeyRegisterBodySchema = z.object({ name: passkeyNameSchema, response: webauthnResponseSchema });
/**
 * Adding a passkey gives a new way into the account, so asking for its options is a sensitive change: the
 * current password, and the second factor when two-factor is on (decision 0205). The options' challenge is
 * bound to the session that proved them.
 */
export const passkeyOptionsBodySchema = z.object({ currentPassword: currentPasswordSchema, ...STEP_UP_FIELDS });
export type PasskeyOptionsBody = z.infer<typeof passkeyOptionsBodySchema>;
export const passkeyLoginOptionsBodySchema = z.object({ challenge: challengeTokenSchema.optional() }).default({});
export const passkeyLoginBodySchema = z.object({
  response: webauthnResponseSchema,
  guestId: emptyAsAbsent(guestIdSchema),
  rememberMe: z.boolean().default(false),
});

/** Options for the browser, as @simplewebauthn/server made them. */
export const webauthnOptionsResponseSchema = z.object({ options: z.record(z.string(), z.unknown()) });

export const adminTwoFactorResetBodySchema = z.object({
  reason: z.string({ error: 'A reason is required' }).trim().min(3, 'Say why (at least 3 characters)').max(500),
  ...STEP_UP_FIELDS,
});

/** The bare IP address passkeys cannot work at (browsers refuse them there), or null for a domain name. */
export function passkeyBareHost(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(bare) || bare.includes(':') ? bare : null;
}

/**
 * Why passkeys cannot work at this address, or null when they can, in English (the server's words; the
 * web words it in the reader's language from the address, src/web/features/two-factor/passkeys-availability.ts).
 */
export function passkeyUnavailableReason(hostname: string): string | null {
  const bare = passkeyBareHost(hostname);
  if (bare === null) return null;
  return `Passkeys need a domain name: browsers refuse them on a bare IP address (${bare}). Open Olympus at http://localhost or on its domain to use passkeys.`;
}
