import type { LedgerEntry } from '#shared/schemas/credits';

/** How each kind of ledger entry is named to users (history, receipts). */
export const KIND_LABELS: Record<LedgerEntry['kind'], string> = {
  payment: 'Top-up',
  reward: 'Reward',
  adjustment: 'Adjustment',
  spend: 'Spent',
  refund: 'Refund',
  settlement: 'Owed amount paid',
};
