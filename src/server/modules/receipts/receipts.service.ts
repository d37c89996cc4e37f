import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Receipt } from '#shared/schemas/credits.js';
import { isUuid } from '#shared/schemas/common.js';
import type { DbOrTx } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { charges } from '#server/modules/charges/charges.tables.js';
import { payments } from '#server/modules/payments/payments.tables.js';
import { users } from '#server/modules/users/users.tables.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { toLedgerEntryDto } from '#server/modules/credits/ledger.service.js';

const UUID_IN_REFERENCE = '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})';
const PAYMENT_REFERENCE = new RegExp(`^payment:${UUID_IN_REFERENCE}(?::|$)`, 'i');
const CHARGE_REFERENCE = new RegExp(`^charge(?:-refund)?:${UUID_IN_REFERENCE}$`, 'i');

/**
 * The receipt of one of my ledger entries (docs/product.md#receipts): any entry (top-ups, orders, charges, refunds...)
 * has one, built from the entry itself; a top-up adds its payment, a charge its charge. Someone else's
 * entry, or no entry, is the same 404.
 */
export async function getReceipt(db: DbOrTx, userId: string, entryId: string): Promise<Receipt> {
  if (!isUuid(entryId)) throw notFound('Receipt not found');
  const [row] = await db
    .select({ entry: creditLedgerEntries, username: users.username, email: users.email })
    .from(creditLedgerEntries)
    .innerJoin(users, eq(users.id, creditLedgerEntries.userId))
    .where(and(eq(creditLedgerEntries.id, entryId), eq(creditLedgerEntries.userId, userId)))
    .limit(1);
  if (!row) throw notFound('Receipt not found');
  const { entry } = row;

  let payment: Receipt['payment'] = null;
  const paymentId = PAYMENT_REFERENCE.exec(entry.reference)?.[1];
  if (paymentId) {
    const [p] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)))
      .limit(1);
    if (p) {
      payment = {
        id: p.id,
        status: p.status,
        payCurrency: p.payCurrency,
        payAmount: p.payAmount,
        actuallyPaid: p.actuallyPaid,
        priceAmountCents: p.priceAmountCents,
        priceCurrency: p.priceCurrency,
        feeCents: p.feeCents,
        txHash: p.txHash,
      };
    }
  }

  let charge: Receipt['charge'] = null;
  const chargeId = CHARGE_REFERENCE.exec(entry.reference)?.[1];
  if (chargeId) {
    const [c] = await db
      .select()
      .from(charges)
      .where(and(eq(charges.id, chargeId), eq(charges.userId, userId)))
      .limit(1);
    if (c) charge = { id: c.id, description: c.description, metadata: c.metadata, status: c.status };
  }

  return { entry: toLedgerEntryDto(entry), account: { username: row.username, email: row.email }, payment, charge };
}

/** At most this many rows in one export; a longer range is cut there (the file says so). */
export const EXPORT_MAX_ROWS = 50_000;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. Text a
 * spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return) gets a
 * leading apostrophe first (OWASP "CSV injection"). Numbers are written by us and passed as they are.
 */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const HEADER = ['date', 'entry_id', 'kind', 'description', 'amount', 'balance_after', 'reference'];

/** My ledger entries from `from` to `to` (both days included, UTC), oldest first, as CSV text. */
export async function exportLedgerCsv(db: DbOrTx, userId: string, from: string, to: string): Promise<string> {
  const start = new Date(`${from}T00:00:00.000Z`);
  const end = new Date(`${to}T00:00:00.000Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  const rows = await db
    .select()
    .from(creditLedgerEntries)
    .where(and(eq(creditLedgerEntries.userId, userId), gte(creditLedgerEntries.createdAt, start), lt(creditLedgerEntries.createdAt, end)))
    .orderBy(asc(creditLedgerEntries.createdAt), asc(creditLedgerEntries.balanceAfterCents), asc(creditLedgerEntries.id))
    .limit(EXPORT_MAX_ROWS);
  const lines = [HEADER.join(',')];
  for (const e of rows) {
    lines.push(
      [
        e.createdAt.toISOString(),
        e.id,
        csvText(e.kind),
        csvText(e.description),
        (e.amountCents / 100).toFixed(2),
        (e.balanceAfterCents / 100).toFixed(2),
        csvText(e.reference),
      ].join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
