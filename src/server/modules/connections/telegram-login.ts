import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Telegram Login Widget payloads older than this are refused (docs/providers.md: 24 h is common practice). */
export const TELEGRAM_AUTH_MAX_AGE_S = 24 * 60 * 60;
/** A little clock skew between Telegram and us is tolerated for auth_date in the future. */
export const TELEGRAM_AUTH_FUTURE_SKEW_S = 5 * 60;

/** The login page of this server's Telegram sandbox, which stands in for Telegram's own. */
export const TELEGRAM_SANDBOX_LOGIN_PATH = '/sandbox/telegram/login';

export type TelegramCheck = 'ok' | 'hash_mismatch' | 'expired';

/**
 * The data-check-string: every received field except `hash`, as `key=value`, sorted by key, joined
 * with a line feed. Absent fields are left out (Telegram omits empty ones); present ones are used as is.
 */
export function telegramDataCheckString(fields: Record<string, string | undefined>): string {
  return Object.keys(fields)
    .filter((key) => key !== 'hash' && fields[key] !== undefined)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
}

/** hex(HMAC-SHA-256(SHA-256(bot_token), data_check_string)): how Telegram (and our sandbox) signs. */
export function signTelegramLogin(botToken: string, fields: Record<string, string | undefined>): string {
  const secret = createHash('sha256').update(botToken).digest();
  return createHmac('sha256', secret).update(telegramDataCheckString(fields)).digest('hex');
}

/** Checks a Login Widget payload's hash (constant time) and its age. */
export function checkTelegramLogin(
  botToken: string,
  fields: Record<string, string | undefined> & { hash: string; auth_date: string },
  nowSeconds = Math.floor(Date.now() / 1000),
): TelegramCheck {
  const expected = Buffer.from(signTelegramLogin(botToken, fields), 'utf8');
  const received = Buffer.from(fields.hash.toLowerCase(), 'utf8');
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) return 'hash_mismatch';
  const authDate = Number(fields.auth_date);
  if (!Number.isSafeInteger(authDate)) return 'hash_mismatch';
  if (nowSeconds - authDate >= TELEGRAM_AUTH_MAX_AGE_S || authDate - nowSeconds > TELEGRAM_AUTH_FUTURE_SKEW_S) return 'expired';
  return 'ok';
}
