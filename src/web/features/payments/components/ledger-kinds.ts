import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
// The messages below need the active language, which the language module sets up on import (decision 0326).
import '#web/features/language';
import type { LedgerEntry } from '#shared/schemas/credits';

/** How each kind of ledger entry is named to users (history, receipts). */
export const KIND_LABELS: Record<LedgerEntry['kind'], MessageDescriptor> = {
  payment: msg`Top-up`,
  reward: msg`Reward`,
  adjustment: msg`Adjustment`,
  spend: msg`Spent`,
  refund: msg`Refund`,
  settlement: msg`Owed amount paid`,
  forfeit: msg`Forfeited on closing`,
  referral_reward: msg`Referral reward`,
  welcome_bonus: msg`Welcome bonus`,
  referral_clawback: msg`Referral reward taken back`,
};

/** The order entries' description is `Order: <item>` (the catalogue's purchases). */
const ORDER_DESCRIPTION = /^Order: (.+)$/s;

/**
 * What a receipt is titled after (decision 0239): what the entry was, not its bookkeeping kind -
 * "Purchase of <item>", "Top-up", "Refund", "Balance adjustment"...
 */
export function receiptTitle(entry: Pick<LedgerEntry, 'kind' | 'description'>): string {
  switch (entry.kind) {
    case 'spend': {
      const item = ORDER_DESCRIPTION.exec(entry.description)?.[1] ?? entry.description;
      return t`Purchase of ${item}`;
    }
    case 'adjustment':
      return t`Balance adjustment`;
    default:
      return i18n._(KIND_LABELS[entry.kind]);
  }
}
