import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TwoFactorSettingsResponse } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { twoFactorKeys } from './two-factor-keys';

/** GET /api/auth/2fa with the staff rule: whether the console needs two-factor turned on first. */
export const getTwoFactorSettings = () => api.get<TwoFactorSettingsResponse>('/api/auth/2fa');

export const staffTwoFactorRequirementQueryOptions = () =>
  queryOptions({
    queryKey: twoFactorKeys.settings,
    queryFn: getTwoFactorSettings,
    select: (r) => r.requiredForStaff && !r.twoFactor.totp && r.twoFactor.passkeys === 0,
  });

export function useStaffTwoFactorRequirement() {
  return useQuery(staffTwoFactorRequirementQueryOptions());
}
