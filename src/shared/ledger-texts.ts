import { formatCredits } from './fees.js';
import { DEFAULT_ADJUSTMENT_NOTE, type LedgerEntry } from './schemas/credits.js';

/**
 * Every description the system itself writes on a ledger entry or an outstanding amount, with its
 * reader (docs/decisions/0330-ledger-descriptions-in-the-readers-language.md). The stored text stays
 * English (it is the API's `description`, and ledger rows never change); the web and the server's
 * mails read the values back out of it and write the line in the reader's language. A template's
 * writer and parser live side by side so the stored English and its reader cannot drift:
 * `src/shared/ledger-texts.test.ts` pins the English and round-trips every template.
 *
 * What people wrote (a staff member's customer note, a merchant's charge description, an item or a
 * campaign name) is carried as a value and never translated; a text no template reads is shown as stored.
 */

/** A ledger entry's kind, or `debt` for an outstanding amount's description (`credit_debts`). */
export type LedgerTextKind = LedgerEntry['kind'] | 'debt';

/** How a reversed payment went back to the sender (the `credit_debts.reason` wording). */
export type ReversalWay = 'refunded' | 'charged_back';

interface Template<V> {
  /** The entries that may carry this text: a text of another kind is not read as this template. */
  readonly kinds: readonly LedgerTextKind[];
  /** The English stored on the entry, exactly as the posting code wrote it before this module existed. */
  write(values: V): string;
  /** The values back out of a stored text, or null when the text is not this template's. */
  parse(text: string): V | null;
}

/** "12.50" → 1250; only the two-decimal form `formatCredits` writes. */
function parseCents(text: string): number | null {
  const match = /^(\d+)\.(\d{2})$/.exec(text);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number(match[2]);
  return Number.isSafeInteger(cents) ? cents : null;
}

/** A template whose text is fixed (no values). */
function fixed(kinds: readonly LedgerTextKind[], text: string): Template<Record<string, never>> {
  return { kinds, write: () => text, parse: (t) => (t === text ? {} : null) };
}

const TICKER = String.raw`([^\s()]+)`;
const CENTS = String.raw`(\d+\.\d{2})`;

export const LEDGER_TEXTS = {
  /** A finished crypto payment's credits (payments/payment-rules.ts `creditDue`). */
  cryptoTopUp: {
    kinds: ['payment'],
    write: ({ priceCents, coin }: { priceCents: number; coin: string }) => `Crypto top-up of ${formatCredits(priceCents)} USD (${coin})`,
    parse(text: string) {
      const m = new RegExp(`^Crypto top-up of ${CENTS} USD \\(${TICKER}\\)$`).exec(text);
      const priceCents = m ? parseCents(m[1]!) : null;
      return m && priceCents !== null ? { priceCents, coin: m[2]! } : null;
    },
  },
  /** The credits of what arrived of a partially paid payment (`creditDue`). */
  partialCryptoPayment: {
    kinds: ['payment'],
    write: ({ coin }: { coin: string }) => `Partial crypto payment (${coin})`,
    parse(text: string) {
      const m = new RegExp(`^Partial crypto payment \\(${TICKER}\\)$`).exec(text);
      return m ? { coin: m[1]! } : null;
    },
  },
  /** An exchange's reward credited (exchange/exchange-sync.ts); the crypto amount as the exchange stored it. */
  exchangeReward: {
    kinds: ['reward'],
    write: ({ amount, from, to, cents }: { amount: string; from: string; to: string; cents: number }) =>
      `Exchange reward: ${amount} ${from} to ${to} (${formatCredits(cents)} credits)`,
    parse(text: string) {
      const m = new RegExp(`^Exchange reward: (\\S+) ${TICKER} to ${TICKER} \\(${CENTS} credits\\)$`).exec(text);
      const cents = m ? parseCents(m[4]!) : null;
      return m && cents !== null ? { amount: m[1]!, from: m[2]!, to: m[3]!, cents } : null;
    },
  },
  /** A reversed payment's credits taken back from the balance (payments/provider-updates.ts). */
  paymentReversed: {
    kinds: ['refund'],
    write: ({ way, coin }: { way: ReversalWay; coin: string }) =>
      `Crypto payment ${way === 'refunded' ? 'refunded' : 'charged back'} (${coin}): its credits taken back`,
    parse(text: string) {
      const m = new RegExp(`^Crypto payment (refunded|charged back) \\(${TICKER}\\): its credits taken back$`).exec(text);
      return m ? { way: (m[1] === 'refunded' ? 'refunded' : 'charged_back') as ReversalWay, coin: m[2]! } : null;
    },
  },
  /** The outstanding amount a reversed payment leaves when its credits were already spent. */
  paymentReversedDebt: {
    kinds: ['debt'],
    write: ({ way, priceCents, coin, creditedCents }: { way: ReversalWay; priceCents: number; coin: string; creditedCents: number }) =>
      `Crypto payment of ${formatCredits(priceCents)} USD (${coin}) ${
        way === 'refunded' ? 'refunded to the sender' : 'charged back'
      } after its ${formatCredits(creditedCents)} credits had been partly spent`,
    parse(text: string) {
      const m = new RegExp(
        `^Crypto payment of ${CENTS} USD \\(${TICKER}\\) (refunded to the sender|charged back) after its ${CENTS} credits had been partly spent$`,
      ).exec(text);
      const priceCents = m ? parseCents(m[1]!) : null;
      const creditedCents = m ? parseCents(m[4]!) : null;
      if (!m || priceCents === null || creditedCents === null) return null;
      const way: ReversalWay = m[3] === 'refunded to the sender' ? 'refunded' : 'charged_back';
      return { way, priceCents, coin: m[2]!, creditedCents };
    },
  },
  /** A credit paying part of what the account owes (credits/ledger.service.ts). */
  settlementPartial: {
    kinds: ['settlement'],
    write: ({ stillOwedCents }: { stillOwedCents: number }) =>
      `Paid towards the outstanding amount (${formatCredits(stillOwedCents)} credits still owed)`,
    parse(text: string) {
      const m = new RegExp(`^Paid towards the outstanding amount \\(${CENTS} credits still owed\\)$`).exec(text);
      const stillOwedCents = m ? parseCents(m[1]!) : null;
      return stillOwedCents !== null ? { stillOwedCents } : null;
    },
  },
  /** A credit paying all the account owed. */
  settlementFull: {
    kinds: ['settlement'],
    write: ({ paidCents }: { paidCents: number }) => `Outstanding amount paid (${formatCredits(paidCents)} credits)`,
    parse(text: string) {
      const m = new RegExp(`^Outstanding amount paid \\(${CENTS} credits\\)$`).exec(text);
      const paidCents = m ? parseCents(m[1]!) : null;
      return paidCents !== null ? { paidCents } : null;
    },
  },
  /** The balance written off when an account is erased (account-closure/erasure.ts). */
  balanceForfeited: fixed(['forfeit'], 'Balance forfeited when the account was closed and erased'),
  /** A payment finishing after its account was erased (payments/late-payments.ts). */
  latePaymentSetAside: fixed(
    ['forfeit'],
    'Credits of a payment that finished after the account was erased: set aside for a refund to the sender',
  ),
  /** A staff adjustment without a note for the customer (credits/adjustments.service.ts). */
  adjustmentBySupport: fixed(['adjustment'], DEFAULT_ADJUSTMENT_NOTE),
  /** A merchant's charge refunded (charges/charges.service.ts): the charge's description as the merchant wrote it. */
  chargeRefund: {
    kinds: ['refund'],
    write: ({ description }: { description: string }) => `Refund: ${description}`,
    parse(text: string) {
      const m = /^Refund: (.+)$/s.exec(text);
      return m ? { description: m[1]! } : null;
    },
  },
  /** A catalogue purchase (catalogue/catalogue.service.ts): the item's name as staff wrote it. */
  order: {
    kinds: ['spend'],
    write: ({ item }: { item: string }) => `Order: ${item}`,
    parse(text: string) {
      const m = /^Order: (.+)$/s.exec(text);
      return m ? { item: m[1]! } : null;
    },
  },
  /** A catalogue order refunded by staff. */
  orderRefund: {
    kinds: ['refund'],
    write: ({ item }: { item: string }) => `Refund of order: ${item}`,
    parse(text: string) {
      const m = /^Refund of order: (.+)$/s.exec(text);
      return m ? { item: m[1]! } : null;
    },
  },
  /** An ad campaign's budget taken when it starts (ads/advertiser-campaigns.ts): the campaign's name as written. */
  adCampaignBudget: {
    kinds: ['spend'],
    write: ({ campaign }: { campaign: string }) => `Ad campaign budget: ${campaign}`,
    parse(text: string) {
      const m = /^Ad campaign budget: (.+)$/s.exec(text);
      return m ? { campaign: m[1]! } : null;
    },
  },
  /** What an ended campaign did not spend, given back (ads/campaign-ending.ts). */
  adBudgetUnspent: {
    kinds: ['refund'],
    write: ({ campaign }: { campaign: string }) => `Unspent ad budget: ${campaign}`,
    parse(text: string) {
      const m = /^Unspent ad budget: (.+)$/s.exec(text);
      return m ? { campaign: m[1]! } : null;
    },
  },
  /** The referrer's share of a referred person's top-up; `share` as written ("10%"). */
  referralReward: {
    kinds: ['referral_reward'],
    write: ({ share, maskedName }: { share: string; maskedName: string }) => `Referral reward: ${share} of a top-up by ${maskedName}`,
    parse(text: string) {
      const m = /^Referral reward: (.+?) of a top-up by (.+)$/s.exec(text);
      return m ? { share: m[1]!, maskedName: m[2]! } : null;
    },
  },
  /** The referred person's bonus. */
  welcomeBonus: fixed(['welcome_bonus'], 'Welcome bonus for joining with a referral link'),
  /** A referrer's share taken back because the top-up it came from was reversed. */
  referralRewardTakenBack: {
    kinds: ['referral_clawback'],
    write: ({ maskedName }: { maskedName: string }) => `Referral reward taken back: the top-up by ${maskedName} was reversed`,
    parse(text: string) {
      const m = /^Referral reward taken back: the top-up by (.+) was reversed$/s.exec(text);
      return m ? { maskedName: m[1]! } : null;
    },
  },
  /** A welcome bonus taken back because the top-up that earned it was reversed. */
  welcomeBonusTakenBack: fixed(['referral_clawback'], 'Welcome bonus taken back: the top-up was reversed'),
  /** What a referrer owes when a share taken back had already been spent. */
  referralRewardDebt: {
    kinds: ['debt'],
    write: ({ amountCents, maskedName }: { amountCents: number; maskedName: string }) =>
      `Referral reward of ${formatCredits(amountCents)} credits taken back after the top-up by ${maskedName} was reversed, once it had been spent`,
    parse(text: string) {
      const m = new RegExp(
        `^Referral reward of ${CENTS} credits taken back after the top-up by (.+) was reversed, once it had been spent$`,
        's',
      ).exec(text);
      const amountCents = m ? parseCents(m[1]!) : null;
      return m && amountCents !== null ? { amountCents, maskedName: m[2]! } : null;
    },
  },
  /** What a referred person owes when a welcome bonus taken back had already been spent. */
  welcomeBonusDebt: {
    kinds: ['debt'],
    write: ({ amountCents }: { amountCents: number }) =>
      `Welcome bonus of ${formatCredits(amountCents)} credits taken back after the top-up was reversed, once it had been spent`,
    parse(text: string) {
      const m = new RegExp(`^Welcome bonus of ${CENTS} credits taken back after the top-up was reversed, once it had been spent$`).exec(
        text,
      );
      const amountCents = m ? parseCents(m[1]!) : null;
      return amountCents !== null ? { amountCents } : null;
    },
  },
} as const satisfies Record<string, { kinds: readonly LedgerTextKind[]; write(values: never): string; parse(text: string): unknown }>;

export type LedgerTextId = keyof typeof LEDGER_TEXTS;

/** The values of one template, as its writer takes them and its parser answers them. */
export type LedgerTextValues<Id extends LedgerTextId> = Parameters<(typeof LEDGER_TEXTS)[Id]['write']>[0];

/** A stored text read back: which template wrote it, with what. */
export type ParsedLedgerText = { [Id in LedgerTextId]: { id: Id; values: LedgerTextValues<Id> } }[LedgerTextId];

/** Writes a template's English, as it is stored. */
export function ledgerText<Id extends LedgerTextId>(id: Id, values: LedgerTextValues<Id>): string {
  return (LEDGER_TEXTS[id].write as (v: LedgerTextValues<Id>) => string)(values);
}

const IDS = Object.keys(LEDGER_TEXTS) as LedgerTextId[];

/**
 * Which template wrote `text` on an entry of `kind` (a debt's: `debt`), and with what; null for a text
 * no template of that kind writes (what a person wrote, or an older wording), shown as stored.
 */
export function parseLedgerText(text: string, kind: LedgerTextKind): ParsedLedgerText | null {
  for (const id of IDS) {
    const template = LEDGER_TEXTS[id] as Template<unknown>;
    if (!template.kinds.includes(kind)) continue;
    const values = template.parse(text);
    if (values !== null) return { id, values } as ParsedLedgerText;
  }
  return null;
}
