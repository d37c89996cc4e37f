import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminLedgerEntry } from '#shared/schemas/credits';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { adminKeys } from './admin-keys';

export interface UserLedgerResponse {
  /** With each adjustment's internal reason (staff only). */
  entries: AdminLedgerEntry[];
  balanceCents: number;
  page: number;
  pageSize: number;
  total: number;
}

/** GET /api/admin/users/{id}/ledger: one page (20) of an account's ledger, and its balance. */
export function getUserLedger(id: string, page: number, signal?: AbortSignal): Promise<UserLedgerResponse> {
  return api.get<UserLedgerResponse>(`/api/admin/users/${encodeURIComponent(id)}/ledger${toQueryString({ page, pageSize: 20 })}`, {
    signal,
  });
}

export const userLedgerQueryOptions = (id: string, page: number) =>
  queryOptions({
    queryKey: adminKeys.userLedger(id, page),
    queryFn: ({ signal }) => getUserLedger(id, page, signal),
    placeholderData: keepPreviousData,
  });

export function useUserLedger(id: string, page: number) {
  return useQuery(userLedgerQueryOptions(id, page));
}
