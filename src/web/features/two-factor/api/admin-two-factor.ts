import type { TwoFactorStatus } from '../../../../shared/schemas/two-factor';
import { api } from '../../../lib/api-client';

/** Plain calls: the staff console renders them outside a QueryClient in its tests. */
export const getUserTwoFactor = (userId: string) =>
  api.get<{ twoFactor: TwoFactorStatus }>(`/api/admin/users/${encodeURIComponent(userId)}/two-factor`).then((r) => r.twoFactor);

export const resetUserTwoFactor = (userId: string, reason: string) =>
  api.post<{ twoFactor: TwoFactorStatus }>(`/api/admin/users/${encodeURIComponent(userId)}/two-factor/reset`, { reason }).then((r) => r.twoFactor);
