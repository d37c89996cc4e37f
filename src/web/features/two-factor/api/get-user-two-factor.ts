import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TwoFactorStatus } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { twoFactorKeys } from './two-factor-keys';

/** GET /api/admin/users/{id}/two-factor: a user's two-factor status as staff see it. */
export const getUserTwoFactor = (userId: string) =>
  api.get<{ twoFactor: TwoFactorStatus }>(`/api/admin/users/${encodeURIComponent(userId)}/two-factor`).then((r) => r.twoFactor);

export const userTwoFactorQueryOptions = (userId: string) =>
  queryOptions({ queryKey: twoFactorKeys.ofUser(userId), queryFn: () => getUserTwoFactor(userId) });

export function useUserTwoFactor(userId: string) {
  return useQuery(userTwoFactorQueryOptions(userId));
}
