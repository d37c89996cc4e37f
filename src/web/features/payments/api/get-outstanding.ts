import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyOutstandingResponse } from '#shared/schemas/debts';
import { api } from '#web/lib/api-client';

/** GET /api/credits/outstanding: what my account owes after a reversed payment (docs/decisions/0120). */
export function fetchOutstanding(): Promise<MyOutstandingResponse> {
  return api.get<MyOutstandingResponse>('/api/credits/outstanding');
}

export const outstandingQuery = queryOptions({ queryKey: ['credits', 'outstanding'], queryFn: fetchOutstanding });

export function useOutstanding() {
  return useQuery(outstandingQuery);
}
