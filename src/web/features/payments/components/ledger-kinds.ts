import type { LedgerEntry } from '#shared/schemas/credits';

/** How each kind of ledger entry is named to users (history, receipts). */
export const KIND_LABELS: Record<LedgerEntry['kind'], string> = {
  payment: 'Top-up',
  reward: 'Reward',
  adjustment: 'Adjustment',
  spend: 'Spent',
  refund: 'Refund',
  settlement: 'Owed amount paid',
  forfeit: 'Forfeited on closing',
};

/** The order entries' description is `Order: <item>` (the catalogue's purchases). */
const ORDER_DESCRIPTION = /^Order: (.+)$/s;

/**
 * What a receipt is titled after (decision 0239): what the entry was, not its bookkeeping kind -
 * "Purchase of <item>", "Top-up", "Refund", "Balance adjustment"...
 */
export function receiptTitle(entry: Pick<LedgerEntry, 'kind' | 'description'>): string {
  switch (entry.kind) {
    case 'spend':
      return `Purchase of ${ORDER_DESCRIPTION.exec(entry.description)?.[1] ?? entry.description}`;
    case 'adjustment':
      return 'Balance adjustment';
    default:
      return KIND_LABELS[entry.kind];
  }
}
