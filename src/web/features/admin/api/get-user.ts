import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUserDetailResponse } from '#shared/schemas/admin';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';

export type AdminUserDetail = AdminUserDetailResponse;

/** GET /api/admin/users/{id}: one account, its active sessions and how much it has done. */
export function getUser(id: string, signal?: AbortSignal): Promise<AdminUserDetail> {
  return api.get<AdminUserDetail>(`/api/admin/users/${encodeURIComponent(id)}`, { signal });
}

export const userQueryOptions = (id: string) =>
  queryOptions({ queryKey: adminKeys.user(id), queryFn: ({ signal }) => getUser(id, signal) });

export function useUser(id: string) {
  return useQuery(userQueryOptions(id));
}
