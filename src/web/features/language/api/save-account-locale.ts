import type { Locale } from '#shared/constants';
import type { LocaleBody, User } from '#shared/schemas/auth';
import { api } from '#web/lib/api-client';

/**
 * PUT /api/users/locale: stores the language on the signed-in account (decision 0326). A plain call, not
 * a mutation hook: the header makes it, and the app shell does not carry the query library (decision 0245).
 */
export function saveAccountLocale(locale: Locale): Promise<{ user: User }> {
  return api.put<{ user: User }>('/api/users/locale', { locale } satisfies LocaleBody);
}
