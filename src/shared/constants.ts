/**
 * Business constants of docs/product.md#constants and the storage keys of docs/product.md#browser-state.
 * Both the browser and the server read these; change them here only.
 */

export const REQUEST_TIMEOUT_MS = 30_000;

/** A token is treated as expired this many seconds before its `exp`. */
export const TOKEN_EXPIRY_MARGIN_S = 300;

export const TOKEN_COOKIE = {
  name: 'token',
  path: '/',
  sameSite: 'lax',
} as const;

export const REMEMBER_ME_LIFETIME_S = 30 * 24 * 60 * 60;
export const DEFAULT_SESSION_LIFETIME_S = 24 * 60 * 60;
/** Token and guest cookies in the browser's session flow. */
export const SESSION_COOKIE_MAX_AGE_S = 86_400;

export const REWARD_CLAIM_VALIDITY_HOURS = 720;
export const REWARD_CLAIM_VALIDITY_MS = REWARD_CLAIM_VALIDITY_HOURS * 60 * 60 * 1000;

export const PAYMENT_EXPIRY_S = 3600;
export const PAYMENT_STATUS_POLL_MS = 15_000;
export const COUNTDOWN_TICK_MS = 1000;
export const COPIED_FEEDBACK_MS = 2000;

export const AUTH_CHECK_DELAY_MS = 500;

export const TOAST_DURATION_MS = {
  default: 4000,
  success: 2000,
  error: 4000,
  loading: Number.POSITIVE_INFINITY,
} as const;
export const TOAST_LIMIT = 20;
export const TOAST_POSITION = 'top-right' as const;

export const CONNECT_ERROR_REDIRECT_MS = 3000;

export const AD_ANIMATION_MS = 800;

export const QR_CODE = { size: 200, level: 'H' } as const;

/** Processing fee tiers by USD amount, highest threshold first. */
export const FEE_TIERS = [
  { minUsd: 500, percent: 1 },
  { minUsd: 100, percent: 3 },
  { minUsd: 0, percent: 5 },
] as const;

export const STORAGE_KEYS = {
  token: 'token',
  guestId: 'guestId',
  userType: 'userType',
  userRole: 'userRole',
  userSubroles: 'userSubroles',
  sessionData: 'sessionData',
  rewardClaims: 'olympus_reward_claims',
  /** The language a visitor chose (decision 0326); kept when they sign out. */
  locale: 'locale',
  paymentExpiry: (paymentId: string) => `payment_expiry_${paymentId}`,
} as const;

/** The languages the product speaks, English first (decision 0326); an account may store one of them. */
export const LOCALES = ['en', 'es', 'ru', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

export const ROLES = ['user', 'support', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const STAFF_ROLES: readonly Role[] = ['support', 'admin'];

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** How long a closing account can still be restored before the erasure job erases it (decision 0255). */
export const ACCOUNT_ERASURE_DELAY_DAYS = 14;

/**
 * Staff powers (docs/security.md#staff-powers): refunding an order worth this much or more asks for the
 * admin's second factor, and a balance adjustment of this much or more (either way) waits for a second
 * admin's approval.
 */
export const REFUND_STEP_UP_CENTS = 5_000;
export const ADJUSTMENT_APPROVAL_CENTS = 100_000;
