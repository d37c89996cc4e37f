import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PasskeyListResponse } from '#shared/schemas/two-factor';
import { api } from '#web/lib/api-client';
import { twoFactorKeys } from './two-factor-keys';

/** GET /api/auth/2fa/passkeys: my passkeys. */
export const getPasskeys = () => api.get<PasskeyListResponse>('/api/auth/2fa/passkeys');

export const passkeysQueryOptions = (enabled = true) => queryOptions({ queryKey: twoFactorKeys.passkeys, queryFn: getPasskeys, enabled });

export function usePasskeys(enabled = true) {
  return useQuery(passkeysQueryOptions(enabled));
}
