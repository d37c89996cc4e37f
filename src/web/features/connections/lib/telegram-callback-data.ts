/** The fields Telegram sends to /telegram-callback (docs/product.md#browser-state); absent ones stay absent. */
export const TELEGRAM_CALLBACK_FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash'] as const;
export type TelegramCallbackData = Partial<Record<(typeof TELEGRAM_CALLBACK_FIELDS)[number], string>>;
