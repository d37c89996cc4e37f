import type { VerifyTelegramResponse } from '#shared/schemas/connections';
import type { User } from '#shared/schemas/auth';
import { api } from '#web/lib/api-client';

/** The fields Telegram sends to /telegram-callback (spec section 3); absent ones stay absent. */
export const TELEGRAM_CALLBACK_FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash'] as const;
export type TelegramCallbackData = Partial<Record<(typeof TELEGRAM_CALLBACK_FIELDS)[number], string>>;

export function verifyTelegram(data: TelegramCallbackData): Promise<VerifyTelegramResponse | undefined> {
  return api.post<VerifyTelegramResponse | undefined>('/api/auth/verify-telegram', data);
}

export async function connectTelegram(data: TelegramCallbackData): Promise<NonNullable<User['telegram']>> {
  const { telegram } = await api.post<{ telegram: NonNullable<User['telegram']> }>('/api/users/connect/telegram', {
    telegramId: data.id,
    username: data.username ?? null,
    firstName: data.first_name ?? null,
    lastName: data.last_name ?? null,
  });
  return telegram;
}

export async function disconnectTelegram(): Promise<void> {
  await api.delete('/api/users/disconnect/telegram');
}
