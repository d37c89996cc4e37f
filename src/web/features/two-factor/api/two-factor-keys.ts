import { useQueryClient } from '@tanstack/react-query';

/** Query keys of the two-factor feature (decision 0140). A change to my two-factor refreshes everything under `two-factor`. */
export const twoFactorKeys = {
  all: ['two-factor'] as const,
  status: ['two-factor', 'status'] as const,
  passkeys: ['two-factor', 'passkeys'] as const,
  settings: ['two-factor', 'settings'] as const,
  /** A user's two-factor as staff see it. */
  ofUser: (userId: string) => ['admin', 'users', userId, 'two-factor'] as const,
};

/** What every change of my own two-factor does on success. */
export function useInvalidateTwoFactor() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: twoFactorKeys.all });
}
