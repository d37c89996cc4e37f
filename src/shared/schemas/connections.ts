import { z } from 'zod';
import { discordConnectionSchema, telegramConnectionSchema } from './auth.js';

// Account connections (docs/product.md#browser-state, #api, docs/product.md#accounts). The browser and the server share
// these shapes; the field names of the documented calls are kept exactly, snake_case included.

/** Discord ids are snowflakes: decimal digits. */
export const discordIdSchema = z.string().regex(/^\d{1,20}$/, 'Invalid Discord id');

/** GET /api/auth/discord/authorize-url: where the Connect button sends the browser. */
export const discordAuthorizeUrlResponseSchema = z.object({ url: z.url() });

/**
 * POST /api/auth/discord-exchange. The documented call carries only `code` (docs/product.md#api); `state` travels too because the
 * authorize URL carries a state bound to the session and the server must see it to check it
 * (docs/decisions/0050-discord-and-telegram-connections.md).
 */
export const discordExchangeBodySchema = z.object({
  code: z.string({ error: 'Authorization code is required' }).min(1, 'Authorization code is required').max(512),
  state: z.string({ error: 'OAuth state is required' }).min(1, 'OAuth state is required').max(512),
});
export type DiscordExchangeBody = z.infer<typeof discordExchangeBodySchema>;

export const discordIdentitySchema = z.object({
  id: discordIdSchema,
  username: z.string(),
  avatar: z.string().nullable(),
});
export type DiscordIdentityDto = z.infer<typeof discordIdentitySchema>;

/** POST /api/users/connect/discord (docs/product.md#browser-state: discordId, username, avatar). */
export const connectDiscordBodySchema = z.object({
  discordId: discordIdSchema,
  username: z.string().max(100),
  avatar: z.string().max(200).nullable().optional(),
});
export const connectDiscordResponseSchema = z.object({ discord: discordConnectionSchema });

/** GET /api/auth/telegram/config: what the Connect button needs. */
export const telegramConfigResponseSchema = z.object({
  /** The bot's username for the Login Widget (`data-telegram-login`). */
  botName: z.string(),
  /** Where Telegram sends the browser back (`data-auth-url`). */
  authUrl: z.url(),
  /** The sandbox login page when no real bot is configured; null means: show the real widget. */
  sandboxLoginUrl: z.url().nullable(),
});
export type TelegramConfigResponse = z.infer<typeof telegramConfigResponseSchema>;

// The query string gives strings; a JSON client may send numbers for id and auth_date. Either way the
// server checks the hash over the decimal text, exactly as Telegram signed it.
const decimal = (message: string) =>
  z
    .union([z.string(), z.number().int().nonnegative()])
    .transform(String)
    .pipe(z.string().regex(/^\d{1,20}$/, message));
const optionalText = (max: number) => z.string().max(max).optional();

/** POST /api/auth/verify-telegram: the Login Widget's fields, as received (docs/product.md#browser-state). */
export const verifyTelegramBodySchema = z.object({
  id: decimal('Invalid Telegram id'),
  first_name: optionalText(256),
  last_name: optionalText(256),
  username: optionalText(64),
  photo_url: optionalText(2048),
  auth_date: decimal('Invalid auth_date'),
  hash: z.string({ error: 'hash is required' }).min(1, 'hash is required').max(128),
});
export type VerifyTelegramBody = z.infer<typeof verifyTelegramBodySchema>;

export const verifyTelegramResponseSchema = z.object({
  verified: z.boolean(),
  /** Why a payload was refused: its hash does not match, it is older than 24 hours, or it was used before. */
  reason: z.enum(['hash_mismatch', 'expired', 'reused']).optional(),
  id: z.string().optional(),
  username: z.string().nullable().optional(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
});
export type VerifyTelegramResponse = z.infer<typeof verifyTelegramResponseSchema>;

/** POST /api/users/connect/telegram (docs/product.md#browser-state: telegramId, username, firstName, lastName). */
export const connectTelegramBodySchema = z.object({
  telegramId: z
    .union([z.string(), z.number().int().nonnegative()])
    .transform(String)
    .pipe(z.string().regex(/^\d{1,20}$/, 'Invalid Telegram id')),
  username: z.string().max(64).nullable().optional(),
  firstName: z.string().max(256).nullable().optional(),
  lastName: z.string().max(256).nullable().optional(),
});
export const connectTelegramResponseSchema = z.object({ telegram: telegramConnectionSchema });

export const disconnectResponseSchema = z.object({ message: z.string() });
