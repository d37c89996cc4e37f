import { asc, eq } from 'drizzle-orm';
import { strToU8 } from 'fflate';
import type { DbOrTx } from '#server/db/client.js';
import { orders } from '#server/modules/catalogue/catalogue.tables.js';
import { charges } from '#server/modules/charges/charges.tables.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { toLedgerEntryDto } from '#server/modules/credits/ledger.service.js';
import { exchanges } from '#server/modules/exchange/exchange.tables.js';
import { payments } from '#server/modules/payments/payments.tables.js';
import { csvText } from '#server/modules/receipts/receipts.service.js';
import { listMine } from '#server/modules/referrals/referral-reads.js';
import type { UserRow } from '#server/modules/users/users.tables.js';
import { iso, json, type ExportEntry } from './export-format.js';

const LEDGER_CSV_HEADER = ['date', 'entry_id', 'kind', 'description', 'amount', 'balance_after', 'reference'];

export async function* ledgerFiles(db: DbOrTx, userId: string, user: UserRow): AsyncGenerator<ExportEntry> {
  // ledger.csv and ledger.json
  const entries = await db
    .select()
    .from(creditLedgerEntries)
    .where(eq(creditLedgerEntries.userId, userId))
    .orderBy(asc(creditLedgerEntries.createdAt), asc(creditLedgerEntries.balanceAfterCents), asc(creditLedgerEntries.id));
  const ledger = entries.map(toLedgerEntryDto);
  yield { name: 'ledger.json', data: json({ balanceCents: user.creditsCents, entries: ledger }) };
  const csvLines = [LEDGER_CSV_HEADER.join(',')];
  for (const e of ledger) {
    csvLines.push(
      [
        e.createdAt,
        e._id,
        csvText(e.kind),
        csvText(e.description),
        (e.amountCents / 100).toFixed(2),
        (e.balanceAfterCents / 100).toFixed(2),
        csvText(e.reference),
      ].join(','),
    );
  }
  yield { name: 'ledger.csv', data: strToU8(`${csvLines.join('\r\n')}\r\n`) };
}

export async function* paymentFiles(db: DbOrTx, userId: string): AsyncGenerator<ExportEntry> {
  // referrals.json: the people who joined with my link (masked, as I see them) and what each earned me.
  const mine = await listMine(db, userId, { page: 1, pageSize: 100_000 });
  yield { name: 'referrals.json', data: json({ referrals: mine.referrals }) };
  // payments.json, exchanges.json, orders.json, charges.json
  const paymentRows = await db.select().from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.createdAt));
  yield {
    name: 'payments.json',
    data: json({
      payments: paymentRows.map((p) => ({
        id: p.id,
        status: p.status,
        priceAmountCents: p.priceAmountCents,
        priceCurrency: p.priceCurrency,
        payCurrency: p.payCurrency,
        payAmount: p.payAmount,
        payAddress: p.payAddress,
        payinExtraId: p.payinExtraId,
        network: p.network,
        feePercent: p.feePercent,
        feeCents: p.feeCents,
        creditsCents: p.creditsCents,
        creditedCents: p.creditedCents,
        actuallyPaid: p.actuallyPaid,
        txHash: p.txHash,
        providerPaymentId: p.providerPaymentId,
        failureReason: p.failureReason,
        createdAt: iso(p.createdAt),
        expiresAt: iso(p.expiresAt),
        completedAt: iso(p.completedAt),
      })),
    }),
  };
  const exchangeRows = await db.select().from(exchanges).where(eq(exchanges.userId, userId)).orderBy(asc(exchanges.createdAt));
  yield {
    name: 'exchanges.json',
    data: json({
      exchanges: exchangeRows.map((x) => ({
        id: x.id,
        status: x.status,
        fromCurrency: x.fromCurrency,
        toCurrency: x.toCurrency,
        amountFrom: x.amountFrom,
        expectedAmountTo: x.expectedAmountTo,
        amountSent: x.amountSent,
        amountReceived: x.amountReceived,
        payinAddress: x.payinAddress,
        payinExtraId: x.payinExtraId,
        payoutAddress: x.payoutAddress,
        payoutExtraId: x.payoutExtraId,
        refundAddress: x.refundAddress,
        refundExtraId: x.refundExtraId,
        rateType: x.rateType,
        payinHash: x.payinHash,
        payoutHash: x.payoutHash,
        usdValueCents: x.usdValueCents,
        rewardCents: x.rewardCents,
        earnedRewardCents: x.earnedRewardCents,
        rewardMode: x.rewardMode,
        rewardCreditedAt: iso(x.rewardCreditedAt),
        createdAt: iso(x.createdAt),
        finishedAt: iso(x.finishedAt),
      })),
    }),
  };
  const orderRows = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.createdAt));
  yield {
    name: 'orders.json',
    data: json({
      orders: orderRows.map((o) => ({
        id: o.id,
        itemId: o.itemId,
        itemName: o.itemName,
        priceCents: o.priceCents,
        status: o.status,
        ledgerEntryId: o.ledgerEntryId,
        refundLedgerEntryId: o.refundLedgerEntryId,
        createdAt: iso(o.createdAt),
        fulfilledAt: iso(o.fulfilledAt),
        refundedAt: iso(o.refundedAt),
      })),
    }),
  };
  const chargeRows = await db.select().from(charges).where(eq(charges.userId, userId)).orderBy(asc(charges.createdAt));
  yield {
    name: 'charges.json',
    data: json({
      charges: chargeRows.map((c) => ({
        id: c.id,
        amountCents: c.amountCents,
        description: c.description,
        metadata: c.metadata,
        status: c.status,
        createdAt: iso(c.createdAt),
        refundedAt: iso(c.refundedAt),
      })),
    }),
  };
}
