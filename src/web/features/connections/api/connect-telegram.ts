import type { User } from '#shared/schemas/auth';
import { api } from '#web/lib/api-client';
import type { TelegramCallbackData } from '../lib/telegram-callback-data';

/** POST /api/users/connect/telegram: links the verified Telegram account to this user. */
export async function connectTelegram(data: TelegramCallbackData): Promise<NonNullable<User['telegram']>> {
  const { telegram } = await api.post<{ telegram: NonNullable<User['telegram']> }>('/api/users/connect/telegram', {
    telegramId: data.id,
    username: data.username ?? null,
    firstName: data.first_name ?? null,
    lastName: data.last_name ?? null,
  });
  return telegram;
}
