import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdjustmentRequest } from '#shared/schemas/credits';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { toQueryString } from '#web/lib/query-string';
import { adminKeys } from './admin-keys';

/**
 * Four eyes on large adjustments (docs/security.md#staff-powers): GET
 * /api/admin/credits/adjustment-requests?status=pending, of one user or of everyone, newest first.
 */
export function getPendingAdjustmentRequests(userId: string | null, signal?: AbortSignal): Promise<{ requests: AdjustmentRequest[] }> {
  const query = toQueryString({ status: 'pending', ...(userId ? { userId } : {}) });
  return api.get<{ requests: AdjustmentRequest[] }>(`/api/admin/credits/adjustment-requests${query}`, { signal });
}

export const pendingAdjustmentRequestsQueryOptions = (userId: string | null) =>
  queryOptions({ queryKey: adminKeys.adjustmentRequests(userId), queryFn: ({ signal }) => getPendingAdjustmentRequests(userId, signal) });

export function usePendingAdjustmentRequests(userId: string | null) {
  return useQuery(pendingAdjustmentRequestsQueryOptions(userId));
}

/** POST …/:id/approve: a second admin posts the adjustment, with their own second factor. */
export const approveAdjustmentRequest = ({ id, ...stepUp }: { id: string } & StepUpFieldsInput) =>
  api.post<{ request: AdjustmentRequest }>(`/api/admin/credits/adjustment-requests/${encodeURIComponent(id)}/approve`, stepUp);

/** POST …/:id/reject: any admin closes it without moving money (the one who asked: a withdrawal). */
export const rejectAdjustmentRequest = ({ id, note }: { id: string; note: string }) =>
  api.post<{ request: AdjustmentRequest }>(`/api/admin/credits/adjustment-requests/${encodeURIComponent(id)}/reject`, { note });

/** A decision changes the lists of requests and, once approved, the user's balance, ledger and the audit log. */
function useInvalidateAfterDecision() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: adminKeys.adjustmentRequestsAll() }),
      client.invalidateQueries({ queryKey: adminKeys.users() }),
      client.invalidateQueries({ queryKey: adminKeys.auditAll() }),
    ]);
}

export function useApproveAdjustmentRequest() {
  const invalidate = useInvalidateAfterDecision();
  return useMutation({ mutationFn: approveAdjustmentRequest, onSettled: invalidate });
}

export function useRejectAdjustmentRequest() {
  const invalidate = useInvalidateAfterDecision();
  return useMutation({ mutationFn: rejectAdjustmentRequest, onSettled: invalidate });
}
