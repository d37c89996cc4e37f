import { describe, expect, it } from 'vitest';
import { formatCredits } from './fees.js';
import { LEDGER_TEXTS, ledgerText, parseLedgerText, type LedgerTextId, type ParsedLedgerText } from './ledger-texts.js';
import { DEFAULT_ADJUSTMENT_NOTE } from './schemas/credits.js';

/**
 * One sample per template: its values and the English the posting code wrote before the templates
 * existed, copied from that code's template literals (so the stored text stays byte for byte the same).
 */
const SAMPLES: { [Id in LedgerTextId]: Array<{ values: Extract<ParsedLedgerText, { id: Id }>['values']; english: string }> } = {
  cryptoTopUp: [
    { values: { priceCents: 1000, coin: 'BTC' }, english: `Crypto top-up of ${formatCredits(1000)} USD (${'btc'.toUpperCase()})` },
    { values: { priceCents: 130_000, coin: 'USDTTRC20' }, english: 'Crypto top-up of 1300.00 USD (USDTTRC20)' },
    { values: { priceCents: 5, coin: 'ETH' }, english: 'Crypto top-up of 0.05 USD (ETH)' },
  ],
  partialCryptoPayment: [{ values: { coin: 'LTC' }, english: `Partial crypto payment (${'ltc'.toUpperCase()})` }],
  exchangeReward: [
    {
      values: { amount: '0.05', from: 'BTC', to: 'ETH', cents: 1234 },
      english: `Exchange reward: ${'0.05'} ${'btc'.toUpperCase()} to ${'eth'.toUpperCase()} (${formatCredits(1234)} credits)`,
    },
    // A crypto amount is carried as the exchange stored it, every digit.
    {
      values: { amount: '0.123456789012345678', from: 'XMR', to: 'BTC', cents: 7 },
      english: 'Exchange reward: 0.123456789012345678 XMR to BTC (0.07 credits)',
    },
  ],
  paymentReversed: [
    { values: { way: 'refunded', coin: 'BTC' }, english: 'Crypto payment refunded (BTC): its credits taken back' },
    { values: { way: 'charged_back', coin: 'ETH' }, english: 'Crypto payment charged back (ETH): its credits taken back' },
  ],
  paymentReversedDebt: [
    {
      values: { way: 'refunded', priceCents: 10_000, coin: 'BTC', creditedCents: 9700 },
      english: `Crypto payment of ${formatCredits(10_000)} USD (BTC) ${'refunded to the sender'} after its ${formatCredits(9700)} credits had been partly spent`,
    },
    {
      values: { way: 'charged_back', priceCents: 2550, coin: 'DOGE', creditedCents: 2474 },
      english: 'Crypto payment of 25.50 USD (DOGE) charged back after its 24.74 credits had been partly spent',
    },
  ],
  settlementPartial: [
    { values: { stillOwedCents: 4250 }, english: `Paid towards the outstanding amount (${formatCredits(4250)} credits still owed)` },
  ],
  settlementFull: [{ values: { paidCents: 1 }, english: 'Outstanding amount paid (0.01 credits)' }],
  balanceForfeited: [{ values: {}, english: 'Balance forfeited when the account was closed and erased' }],
  latePaymentSetAside: [
    { values: {}, english: 'Credits of a payment that finished after the account was erased: set aside for a refund to the sender' },
  ],
  adjustmentBySupport: [{ values: {}, english: DEFAULT_ADJUSTMENT_NOTE }],
  chargeRefund: [
    { values: { description: 'Pro plan, March' }, english: `Refund: ${'Pro plan, March'}` },
    { values: { description: 'Line one\nline two: «ü»' }, english: 'Refund: Line one\nline two: «ü»' },
  ],
  order: [{ values: { item: 'Sticker pack (large)' }, english: `Order: ${'Sticker pack (large)'}` }],
  orderRefund: [{ values: { item: 'Mug' }, english: `Refund of order: ${'Mug'}` }],
  adCampaignBudget: [{ values: { campaign: 'Spring: sale' }, english: `Ad campaign budget: ${'Spring: sale'}` }],
  adBudgetUnspent: [{ values: { campaign: 'Spring: sale' }, english: `Unspent ad budget: ${'Spring: sale'}` }],
  referralReward: [{ values: { share: '10%', maskedName: 'an***' }, english: 'Referral reward: 10% of a top-up by an***' }],
  welcomeBonus: [{ values: {}, english: 'Welcome bonus for joining with a referral link' }],
  referralRewardTakenBack: [
    { values: { maskedName: 'j*** d.' }, english: 'Referral reward taken back: the top-up by j*** d. was reversed' },
  ],
  welcomeBonusTakenBack: [{ values: {}, english: 'Welcome bonus taken back: the top-up was reversed' }],
  referralRewardDebt: [
    {
      values: { amountCents: 970, maskedName: 'al•••e' },
      english: 'Referral reward of 9.70 credits taken back after the top-up by al•••e was reversed, once it had been spent',
    },
  ],
  welcomeBonusDebt: [
    {
      values: { amountCents: 200 },
      english: 'Welcome bonus of 2.00 credits taken back after the top-up was reversed, once it had been spent',
    },
  ],
};

const ids = Object.keys(LEDGER_TEXTS) as LedgerTextId[];

describe('ledger texts (docs/decisions/0330)', () => {
  it('has a sample for every template', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...ids].sort());
  });

  for (const id of ids) {
    it(`${id}: writes the English stored before, and reads back the same values`, () => {
      for (const sample of SAMPLES[id]) {
        const text = ledgerText(id, sample.values as never);
        expect(text).toBe(sample.english);
        for (const kind of LEDGER_TEXTS[id].kinds) {
          expect(parseLedgerText(text, kind)).toEqual({ id, values: sample.values });
        }
      }
    });
  }

  it('reads a text only on the kinds of entry that template is written on', () => {
    // A merchant's charge (a `spend`) or a staff note (an `adjustment`) that happens to read like a top-up stays as written.
    expect(parseLedgerText('Crypto top-up of 10.00 USD (BTC)', 'spend')).toBeNull();
    expect(parseLedgerText('Crypto top-up of 10.00 USD (BTC)', 'adjustment')).toBeNull();
    expect(parseLedgerText('Order: Mug', 'refund')).toBeNull();
    expect(parseLedgerText('Welcome bonus for joining with a referral link', 'payment')).toBeNull();
  });

  it('answers null for free text, an older wording, or a figure it would not write', () => {
    expect(parseLedgerText('Goodwill credit after the outage', 'adjustment')).toBeNull();
    expect(parseLedgerText('Crypto top-up of 10 USD (BTC)', 'payment')).toBeNull();
    expect(parseLedgerText('Crypto top-up of 10.00 USD (BTC) ', 'payment')).toBeNull();
    expect(parseLedgerText('Outstanding amount paid (-1.00 credits)', 'settlement')).toBeNull();
    expect(parseLedgerText('', 'refund')).toBeNull();
    expect(parseLedgerText('Refund: ', 'refund')).toBeNull();
  });

  it('keeps "Refund of order:" apart from a refunded charge whose text starts the same', () => {
    expect(parseLedgerText('Refund of order: Mug', 'refund')).toEqual({ id: 'orderRefund', values: { item: 'Mug' } });
    expect(parseLedgerText('Refund: of order: Mug', 'refund')).toEqual({ id: 'chargeRefund', values: { description: 'of order: Mug' } });
  });
});
