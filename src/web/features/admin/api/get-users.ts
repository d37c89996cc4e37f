import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUserListResponse } from '#shared/schemas/admin';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { adminKeys } from './admin-keys';

export type UserSearchResponse = AdminUserListResponse;

/** GET /api/admin/users: accounts matching a username, email, id or referral code (first 25). */
export function searchUsers(search: string, signal?: AbortSignal): Promise<UserSearchResponse> {
  return api.get<UserSearchResponse>(`/api/admin/users${toQueryString({ search, pageSize: 25 })}`, { signal });
}

export const usersQueryOptions = (search: string) =>
  queryOptions({
    queryKey: adminKeys.userSearch(search),
    queryFn: ({ signal }) => searchUsers(search, signal),
    placeholderData: keepPreviousData,
  });

export function useUsers(search: string) {
  return useQuery(usersQueryOptions(search));
}
