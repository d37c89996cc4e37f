import { z } from 'zod';
import { pageShape, paginationQuery } from './common.js';
import { emailSchema, passwordSchema } from './auth.js';
import { STEP_UP_FIELDS } from './two-factor.js';

/** A one-time link token as the server makes them (43 url-safe characters); anything else is refused early. */
export const accountTokenSchema = z
  .string({ error: 'The link is missing its token' })
  .trim()
  .min(1, 'The link is missing its token')
  .max(200, 'This link is not valid')
  .regex(/^[A-Za-z0-9_-]+$/, 'This link is not valid');

export const verifyEmailBodySchema = z.object({ token: accountTokenSchema });
export const forgotPasswordBodySchema = z.object({ email: emailSchema });
/**
 * `removePasskeys` (default true, the checked box of the reset page): a reset is what someone does who
 * thinks another person got into the account, and a passkey that person added would still sign in.
 */
export const resetPasswordBodySchema = z.object({
  token: accountTokenSchema,
  password: passwordSchema,
  removePasskeys: z.boolean().default(true),
});
export const changeEmailBodySchema = z.object({
  email: emailSchema,
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(128),
  ...STEP_UP_FIELDS,
});
export type ChangeEmailBody = z.infer<typeof changeEmailBodySchema>;
export const confirmEmailChangeBodySchema = z.object({ token: accountTokenSchema });

export const successResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export const verifyEmailResponseSchema = z.object({ success: z.literal(true), message: z.string(), emailVerified: z.literal(true) });
export const changeEmailResponseSchema = z.object({ success: z.literal(true), message: z.string(), pendingEmail: z.string() });
export const confirmEmailChangeResponseSchema = z.object({ success: z.literal(true), message: z.string(), email: z.string() });

/** Optional notifications; security mails (password, address, new device) are always sent. */
export const mailPreferencesSchema = z.object({ paymentCredited: z.boolean(), ticketReply: z.boolean(), orderUpdates: z.boolean() });
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;
export const mailPreferencesBodySchema = mailPreferencesSchema.partial();

/** Signed, without sign-in; also accepted from the List-Unsubscribe URL's query (RFC 8058 one-click). */
export const unsubscribeTokenSchema = z.string().trim().min(1, 'The link is missing its token').max(300, 'This link is not valid');
export const unsubscribeBodySchema = z.object({
  token: unsubscribeTokenSchema.optional(),
  'List-Unsubscribe': z.string().max(50).optional(),
});
export const unsubscribeQuerySchema = z.object({ token: unsubscribeTokenSchema.optional() });
export const unsubscribeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  kind: z.enum(['payment_credited', 'ticket_reply', 'order_updates']),
});

export const mailStatusSchema = z.enum(['pending', 'sending', 'sent', 'failed']);
export const adminMailQuerySchema = paginationQuery().extend({
  status: mailStatusSchema.optional(),
});
export const adminMailMessageSchema = z.object({
  _id: z.string(),
  userId: z.string().nullable(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: mailStatusSchema,
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type AdminMailMessage = z.infer<typeof adminMailMessageSchema>;
export const adminMailListResponseSchema = z.object({
  messages: z.array(adminMailMessageSchema),
  ...pageShape,
});

/** GET /sandbox/mail/messages (docs/product.md#runtime). */
export const sandboxMailMessageSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  createdAt: z.string(),
});
export type SandboxMailMessage = z.infer<typeof sandboxMailMessageSchema>;
export const sandboxMailQuerySchema = z.object({ to: z.string().trim().max(320).optional() });
export const sandboxMailListResponseSchema = z.object({ messages: z.array(sandboxMailMessageSchema) });
