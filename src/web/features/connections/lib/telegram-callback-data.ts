/** The fields Telegram sends to /telegram-callback (spec section 3); absent ones stay absent. */
export const TELEGRAM_CALLBACK_FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash'] as const;
export type TelegramCallbackData = Partial<Record<(typeof TELEGRAM_CALLBACK_FIELDS)[number], string>>;
