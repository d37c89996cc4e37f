import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
// The messages below need the active language, which the language module sets up on import (decision 0326).
import '#web/features/language';
import { parseLedgerText } from '#shared/ledger-texts';
import type { LedgerEntry } from '#shared/schemas/credits';
import { describeLedgerEntry } from './ledger-describe';

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

/**
 * What a receipt is titled after (decision 0239): what the entry was, not its bookkeeping kind -
 * "Purchase of <item>", "Top-up", "Refund", "Balance adjustment"...
 */
export function receiptTitle(entry: Pick<LedgerEntry, 'kind' | 'description'>): string {
  switch (entry.kind) {
    case 'spend': {
      // A catalogue order names its item (`Order: <item>`, src/shared/ledger-texts.ts); any other spend is described.
      const parsed = parseLedgerText(entry.description, entry.kind);
      const item = parsed?.id === 'order' ? parsed.values.item : describeLedgerEntry(entry);
      return t`Purchase of ${item}`;
    }
    case 'adjustment':
      return t`Balance adjustment`;
    default:
      return i18n._(KIND_LABELS[entry.kind]);
  }
}
