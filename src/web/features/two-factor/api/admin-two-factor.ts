import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorSettingsResponse, TwoFactorStatus } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';

/** A user's two-factor status as staff see it, and the admin's reset (staff console). */
export const adminTwoFactorKey = (userId: string) => ['admin', 'users', userId, 'two-factor'] as const;

export const getUserTwoFactor = (userId: string) =>
  api.get<{ twoFactor: TwoFactorStatus }>(`/api/admin/users/${encodeURIComponent(userId)}/two-factor`).then((r) => r.twoFactor);

export const resetUserTwoFactor = (userId: string, reason: string) =>
  api.post<{ twoFactor: TwoFactorStatus }>(`/api/admin/users/${encodeURIComponent(userId)}/two-factor/reset`, { reason }).then((r) => r.twoFactor);

export function useUserTwoFactor(userId: string) {
  return useQuery({ queryKey: adminTwoFactorKey(userId), queryFn: () => getUserTwoFactor(userId) });
}

export function useResetUserTwoFactor(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => resetUserTwoFactor(userId, reason),
    onSuccess: (twoFactor) => client.setQueryData(adminTwoFactorKey(userId), twoFactor),
  });
}

/** The signed-in staff member's own settings: whether the console needs two-factor first. */
export function useStaffTwoFactorRequirement() {
  return useQuery({
    queryKey: ['two-factor', 'settings'] as const,
    queryFn: () => api.get<TwoFactorSettingsResponse>('/api/auth/2fa'),
    select: (r) => r.requiredForStaff && !r.twoFactor.totp && r.twoFactor.passkeys === 0,
  });
}
