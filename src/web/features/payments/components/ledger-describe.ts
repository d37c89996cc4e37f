import { t } from '@lingui/core/macro';
// The messages below need the active language, which the language module sets up on import (decision 0326).
import '#web/features/language';
import { parseLedgerText, type LedgerTextKind, type ParsedLedgerText } from '#shared/ledger-texts';
import type { LedgerEntry } from '#shared/schemas/credits';
import { formatLocaleCredits, formatLocaleCrypto, formatLocalePercent } from '#web/lib/format';

/** A referral share as the server writes it ("10%", "12.5 %"), in the language's way; anything else as written. */
function localeShare(share: string): string {
  const match = /^(\d+)(?:\.(\d+))?\s?%$/.exec(share);
  if (!match) return share;
  return formatLocalePercent(Number(share.replace(/\s?%$/, '')), match[2]?.length ?? 0, { trimZeros: true });
}

/** One parsed system text in the active language; what people wrote inside it stays as written. */
function translate(parsed: ParsedLedgerText): string {
  switch (parsed.id) {
    case 'cryptoTopUp': {
      const usd = formatLocaleCredits(parsed.values.priceCents);
      const coin = parsed.values.coin;
      return t`Crypto top-up of ${usd} USD (${coin})`;
    }
    case 'partialCryptoPayment': {
      const coin = parsed.values.coin;
      return t`Partial crypto payment (${coin})`;
    }
    case 'exchangeReward': {
      // Crypto is never rounded: every digit the exchange stored, with the language's signs.
      const amount = formatLocaleCrypto(parsed.values.amount);
      const { from, to } = parsed.values;
      const credits = formatLocaleCredits(parsed.values.cents);
      return t`Exchange reward: ${amount} ${from} to ${to} (${credits} credits)`;
    }
    case 'paymentReversed': {
      const coin = parsed.values.coin;
      return parsed.values.way === 'refunded'
        ? t`Crypto payment refunded (${coin}): its credits taken back`
        : t`Crypto payment charged back (${coin}): its credits taken back`;
    }
    case 'paymentReversedDebt': {
      const usd = formatLocaleCredits(parsed.values.priceCents);
      const credits = formatLocaleCredits(parsed.values.creditedCents);
      const coin = parsed.values.coin;
      return parsed.values.way === 'refunded'
        ? t`Crypto payment of ${usd} USD (${coin}) refunded to the sender after its ${credits} credits had been partly spent`
        : t`Crypto payment of ${usd} USD (${coin}) charged back after its ${credits} credits had been partly spent`;
    }
    case 'settlementPartial': {
      const owed = formatLocaleCredits(parsed.values.stillOwedCents);
      return t`Paid towards the outstanding amount (${owed} credits still owed)`;
    }
    case 'settlementFull': {
      const paid = formatLocaleCredits(parsed.values.paidCents);
      return t`Outstanding amount paid (${paid} credits)`;
    }
    case 'balanceForfeited':
      return t`Balance forfeited when the account was closed and erased`;
    case 'latePaymentSetAside':
      return t`Credits of a payment that finished after the account was erased: set aside for a refund to the sender`;
    case 'adjustmentBySupport':
      return t`Balance adjustment by support`;
    case 'chargeRefund': {
      const description = parsed.values.description;
      return t`Refund: ${description}`;
    }
    case 'order': {
      const item = parsed.values.item;
      return t`Order: ${item}`;
    }
    case 'orderRefund': {
      const item = parsed.values.item;
      return t`Refund of order: ${item}`;
    }
    case 'adCampaignBudget': {
      const campaign = parsed.values.campaign;
      return t`Ad campaign budget: ${campaign}`;
    }
    case 'adBudgetUnspent': {
      const campaign = parsed.values.campaign;
      return t`Unspent ad budget: ${campaign}`;
    }
    case 'referralReward': {
      const share = localeShare(parsed.values.share);
      const maskedName = parsed.values.maskedName;
      return t`Referral reward: ${share} of a top-up by ${maskedName}`;
    }
    case 'welcomeBonus':
      return t`Welcome bonus for joining with a referral link`;
    case 'referralRewardTakenBack': {
      const maskedName = parsed.values.maskedName;
      return t`Referral reward taken back: the top-up by ${maskedName} was reversed`;
    }
    case 'welcomeBonusTakenBack':
      return t`Welcome bonus taken back: the top-up was reversed`;
    case 'referralRewardDebt': {
      const credits = formatLocaleCredits(parsed.values.amountCents);
      const maskedName = parsed.values.maskedName;
      return t`Referral reward of ${credits} credits taken back after the top-up by ${maskedName} was reversed, once it had been spent`;
    }
    case 'welcomeBonusDebt': {
      const credits = formatLocaleCredits(parsed.values.amountCents);
      return t`Welcome bonus of ${credits} credits taken back after the top-up was reversed, once it had been spent`;
    }
  }
}

/** A stored description of an entry of `kind` (a debt's: `debt`) in the active language; an unknown text as stored. */
export function describeLedgerText(description: string, kind: LedgerTextKind): string {
  const parsed = parseLedgerText(description, kind);
  return parsed ? translate(parsed) : description;
}

/**
 * What a ledger entry was, in the reader's language (docs/decisions/0330): the system's own wording
 * translated, with amounts written the language's way; what a person wrote (a note, a charge's
 * description, an item's name) as written. The API's `description` stays the stored English.
 */
export function describeLedgerEntry(entry: Pick<LedgerEntry, 'kind' | 'description'>): string {
  return describeLedgerText(entry.description, entry.kind);
}

/** An outstanding amount's description (`GET /api/credits/outstanding`) in the reader's language. */
export function describeDebt(debt: { description: string }): string {
  return describeLedgerText(debt.description, 'debt');
}
