import { z } from 'zod';
import { LOCALES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLES } from '#shared/constants.js';
import { emptyAsAbsent } from './common.js';

// Field schemas carry the messages people see next to a field.

/** Letters, digits, dot, dash and underscore: safe in URLs and mentions, unique case-insensitively. */
export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(32, 'Username must be at most 32 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may contain only letters, digits, dots, dashes and underscores');

export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .max(254, 'Email is too long')
  .pipe(z.email('Enter a valid email address'));

/** Length only: no composition rules (docs/product.md#accounts). Common passwords are refused by the server. */
export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** Guest ids are made by the server: `g_` and 32 url-safe characters. */
export const guestIdSchema = z.string().regex(/^g_[A-Za-z0-9_-]{32}$/, 'Invalid guest id');

export const turnstileTokenSchema = z
  .string({ error: 'Please complete the bot check' })
  .min(1, 'Please complete the bot check')
  .max(2048, 'Invalid bot check token');

export const referralCodeSchema = z
  .string()
  .trim()
  .max(32, 'Invalid referral code')
  .regex(/^[A-Za-z0-9]*$/, 'Invalid referral code');

// The browser may send null or '' for an absent guestId or referral code.
const optionalGuestId = emptyAsAbsent(guestIdSchema);

export const registerBodySchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
  guestId: optionalGuestId,
  turnstileToken: turnstileTokenSchema,
  referralCode: emptyAsAbsent(referralCodeSchema),
});
export type RegisterBody = z.infer<typeof registerBodySchema>;

export const loginBodySchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(254),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
  guestId: optionalGuestId,
  turnstileToken: turnstileTokenSchema,
  rememberMe: z.boolean().default(false),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const discordConnectionSchema = z.object({
  id: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  connectedAt: z.string(),
});

export const telegramConnectionSchema = z.object({
  id: z.string(),
  username: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  connectedAt: z.string(),
});

export const roleSchema = z.enum(ROLES);
export const localeSchema = z.enum(LOCALES, { error: 'Choose one of the languages offered' });

export const userSchema = z
  .object({
    _id: z.string(),
    username: z.string(),
    email: z.string(),
    /** Whether the address was confirmed through a link sent to it. */
    emailVerified: z.boolean(),
    role: roleSchema,
    subroles: z.array(z.string()),
    /** Credit balance in credits (1 credit = 1 USD), two decimals. */
    credits: z.number(),
    discord: discordConnectionSchema.nullable(),
    telegram: telegramConnectionSchema.nullable(),
    onboardingCompleted: z.boolean(),
    referralCode: z.string(),
    createdAt: z.string(),
    /** The language the person chose (decision 0326); null: never chosen, the browser's is used. */
    locale: localeSchema.nullable(),
    /** Only in GET /api/auth/me: whether two-factor sign-in is on (decision 0140). */
    twoFactor: z.object({ totp: z.boolean(), passkeys: z.number().int(), recoveryCodesLeft: z.number().int() }).optional(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const guestUserSchema = z
  .object({
    _id: guestIdSchema,
    role: z.literal('guest'),
    isGuest: z.literal(true),
  })
  .meta({ id: 'GuestUser' });
export type GuestUser = z.infer<typeof guestUserSchema>;

export const authResponseSchema = z.object({ user: userSchema, token: z.string() });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const guestResponseSchema = z.object({ user: guestUserSchema, token: z.string(), guestId: guestIdSchema });
export type GuestResponse = z.infer<typeof guestResponseSchema>;

export const meResponseSchema = z.object({ user: z.union([userSchema, guestUserSchema]) });
export const tokenResponseSchema = z.object({ token: z.string() });
export const creditsResponseSchema = z.object({ credits: z.number() });
export const onboardingBodySchema = z.object({ completed: z.boolean().default(true) });
export const localeBodySchema = z.object({ locale: localeSchema });
export type LocaleBody = z.infer<typeof localeBodySchema>;
export const userResponseSchema = z.object({ user: userSchema });
export const csrfResponseSchema = z.object({ csrfToken: z.string() });

export const sessionInfoSchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export const sessionListResponseSchema = z.object({ sessions: z.array(sessionInfoSchema) });
