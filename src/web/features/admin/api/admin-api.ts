import type { AdminUser, AuditEntry, OverviewResponse } from '../../../../shared/schemas/admin';
import type { LedgerEntry } from '../../../../shared/schemas/credits';
import type { Role } from '../../../../shared/constants';
import { api } from '../../../lib/api-client';
import { toQueryString } from '../../../lib/query-string';

export interface AdminUserDetail {
  user: AdminUser;
  sessions: Array<{ _id: string; createdAt: string; lastSeenAt: string; expiresAt: string; ip: string | null; userAgent: string | null }>;
  counts: { tickets: number; payments: number; ledgerEntries: number };
}

export const adminApi = {
  searchUsers: (params: { search?: string; role?: string; page?: number; pageSize?: number }) =>
    api.get<{ users: AdminUser[]; page: number; pageSize: number; total: number }>(`/api/admin/users${toQueryString(params)}`),
  user: (id: string) => api.get<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}`),
  ledger: (id: string, page = 1) =>
    api.get<{ entries: LedgerEntry[]; balanceCents: number; page: number; pageSize: number; total: number }>(
      `/api/admin/users/${encodeURIComponent(id)}/ledger${toQueryString({ page, pageSize: 20 })}`,
    ),
  changeRole: (id: string, role: Role, subroles: string[]) =>
    api.put<{ user: AdminUser }>(`/api/admin/users/${encodeURIComponent(id)}/role`, { role, subroles }),
  setDisabled: (id: string, disabled: boolean, reason: string) =>
    api.put<{ user: AdminUser }>(`/api/admin/users/${encodeURIComponent(id)}/disabled`, { disabled, reason }),
  adjustCredits: (userId: string, amount: number, reason: string, idempotencyKey: string) =>
    api.post<{ entry: LedgerEntry; balanceCents: number; created: boolean }>('/api/admin/credits/adjustments', {
      userId,
      amount,
      reason,
      idempotencyKey,
    }),
  audit: (params: { search?: string; page?: number }) =>
    api.get<{ entries: AuditEntry[]; page: number; pageSize: number; total: number }>(`/api/admin/audit${toQueryString(params)}`),
  overview: (days = 30) => api.get<OverviewResponse>(`/api/admin/overview${toQueryString({ days })}`),
};
