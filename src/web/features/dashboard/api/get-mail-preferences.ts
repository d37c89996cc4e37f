import { useQuery } from '@tanstack/react-query';
import type { MailPreferences } from '#shared/schemas/mail';
import { api } from '#web/lib/api-client';

export const mailPreferencesKey = ['users', 'mail-preferences'] as const;

/** GET /api/users/mail-preferences: which optional notifications the user receives. */
export function useMailPreferences() {
  return useQuery({ queryKey: mailPreferencesKey, queryFn: () => api.get<MailPreferences>('/api/users/mail-preferences') });
}
