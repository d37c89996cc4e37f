import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LedgerEntry } from '#shared/schemas/credits';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';

export interface AdjustCreditsInput {
  userId: string;
  amount: number;
  reason: string;
  /** One key per intended adjustment: a double click or a retry posts once. */
  idempotencyKey: string;
}

/** POST /api/admin/credits/adjustments (admins). */
export function adjustCredits(input: AdjustCreditsInput) {
  return api.post<{ entry: LedgerEntry; balanceCents: number; created: boolean }>('/api/admin/credits/adjustments', input);
}

/** An adjustment changes the account's balance, ledger and its row in the user list. */
export function useAdjustCredits() {
  const client = useQueryClient();
  return useMutation({ mutationFn: adjustCredits, onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.users() }) });
}
