import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TwoFactorStatus } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { twoFactorKeys } from './two-factor-keys';

/** GET /api/auth/2fa: my two-factor status. */
export const getTwoFactorStatus = () => api.get<{ twoFactor: TwoFactorStatus }>('/api/auth/2fa').then((r) => r.twoFactor);

export const twoFactorStatusQueryOptions = () => queryOptions({ queryKey: twoFactorKeys.status, queryFn: getTwoFactorStatus });

export function useTwoFactorStatus() {
  return useQuery(twoFactorStatusQueryOptions());
}
