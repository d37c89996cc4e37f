import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminOutstandingResponse } from '#shared/schemas/debts';
import { api } from '#web/lib/api-client';

/** GET /api/admin/credits/outstanding: accounts flagged because they owe credits (docs/decisions/0120). */
export function fetchFlaggedAccounts(): Promise<AdminOutstandingResponse> {
  return api.get<AdminOutstandingResponse>('/api/admin/credits/outstanding');
}

export const flaggedAccountsQuery = queryOptions({ queryKey: ['admin', 'credits', 'outstanding'], queryFn: fetchFlaggedAccounts });

export function useFlaggedAccounts() {
  return useQuery(flaggedAccountsQuery);
}
