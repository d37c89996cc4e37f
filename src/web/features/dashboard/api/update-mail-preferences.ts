import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MailPreferences } from '#shared/schemas/mail';
import { api } from '#web/lib/api-client';
import { mailPreferencesKey } from './get-mail-preferences';

/** PUT /api/users/mail-preferences: turn optional notifications on or off. */
export function useUpdateMailPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<MailPreferences>) => api.put<MailPreferences>('/api/users/mail-preferences', input),
    onSuccess: (saved) => client.setQueryData(mailPreferencesKey, saved),
  });
}
