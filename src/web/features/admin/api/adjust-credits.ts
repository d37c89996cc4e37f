import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdjustmentRequest, LedgerEntry } from '#shared/schemas/credits';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { adminKeys } from './admin-keys';

export interface AdjustCreditsInput extends StepUpFieldsInput {
  userId: string;
  amount: number;
  /** Staff only: kept in the audit log and on the staff ledger, never shown to the customer. */
  reason: string;
  /** What the customer reads in their credit history (docs/decisions/0235). */
  customerNote?: string;
  /** The balance the confirmation showed: the server refuses (409 BALANCE_CHANGED) if it moved. */
  expectedBalanceCents?: number;
  /** One key per intended adjustment: a double click or a retry posts once. */
  idempotencyKey: string;
}

/** 201: posted at once. */
export interface AdjustCreditsPosted {
  entry: LedgerEntry;
  balanceBeforeCents: number;
  balanceCents: number;
  created: boolean;
}

/** 202: from ADJUSTMENT_APPROVAL_CENTS either way nothing is posted; a second admin must approve. */
export interface AdjustCreditsRequested {
  request: AdjustmentRequest;
  created: boolean;
}

export type AdjustCreditsResult = AdjustCreditsPosted | AdjustCreditsRequested;

/** POST /api/admin/credits/adjustments (admins; the second factor in the body when two-factor is on). */
export function adjustCredits(input: AdjustCreditsInput) {
  return api.post<AdjustCreditsResult>('/api/admin/credits/adjustments', input);
}

/**
 * An adjustment changes the account's balance, ledger and its row in the user list, and adds an
 * audit entry; a large one adds a request for a second admin. A refused one (the balance moved)
 * refreshes the figures too.
 */
export function useAdjustCredits() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: adjustCredits,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: adminKeys.users() }),
        client.invalidateQueries({ queryKey: adminKeys.auditAll() }),
        client.invalidateQueries({ queryKey: adminKeys.adjustmentRequestsAll() }),
      ]),
  });
}
