import type { VerifyTelegramResponse } from '#shared/schemas/connections';
import { api } from '#web/lib/api-client';
import type { TelegramCallbackData } from '../lib/telegram-callback-data';

/** POST /api/auth/verify-telegram: whether the callback's hash is Telegram's. */
export function verifyTelegram(data: TelegramCallbackData): Promise<VerifyTelegramResponse | undefined> {
  return api.post<VerifyTelegramResponse | undefined>('/api/auth/verify-telegram', data);
}
