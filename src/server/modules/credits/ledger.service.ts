import { and, asc, count, desc, eq, gt, like, or, sql } from 'drizzle-orm';
import { formatCredits } from '#shared/fees.js';
import type { LedgerEntry } from '#shared/schemas/credits.js';
import type { DbOrTx } from '#server/db/client.js';
import { AppError, conflict, notFound, unprocessable } from '#server/errors.js';
import { users } from '#server/modules/users/users.tables.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import {
  creditDebts,
  creditLedgerEntries,
  type CreditDebtRow,
  type DebtReason,
  type LedgerEntryRow,
  type LedgerKind,
} from './credits.tables.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';

export interface PostLedgerEntryInput {
  userId: string;
  /** Signed amount in cents: positive credits the user, negative debits. */
  amountCents: number;
  kind: LedgerKind;
  /** Unique across the ledger: `payment:<id>`, `reward:<exchangeId>`, `adjustment:<key>`... */
  reference: string;
  description: string;
  actorId?: string | null;
  metadata?: Record<string, unknown>;
}

export interface PostLedgerEntryResult {
  entry: LedgerEntryRow;
  /** False when an entry with this reference already existed (the posting was a repeat). */
  created: boolean;
  /** The balance once this posting (and any settlement it paid) is done. */
  balanceCents: number;
  /** Of a credit, what went straight to the account's outstanding amount (docs/decisions/0120). */
  settledCents: number;
}

async function findByReference(db: DbOrTx, reference: string): Promise<LedgerEntryRow | null> {
  const [row] = await db.select().from(creditLedgerEntries).where(eq(creditLedgerEntries.reference, reference)).limit(1);
  return row ?? null;
}

function repeatOf(existing: LedgerEntryRow, input: PostLedgerEntryInput): PostLedgerEntryResult {
  // The same reference must mean the same posting; anything else is a bug to surface, not to absorb.
  if (existing.userId !== input.userId || existing.amountCents !== input.amountCents || existing.kind !== input.kind) {
    throw conflict('This reference was already used for a different ledger entry', { reference: input.reference });
  }
  return { entry: existing, created: false, balanceCents: existing.balanceAfterCents, settledCents: 0 };
}

/**
 * The first lock of every transaction that spends or returns a user's credits (docs/decisions/0301):
 * the user's row, before any row that references it is written or locked (a campaign, a charge, an
 * order, a creative), so two transactions of one user queue here instead of deadlocking. Answers the
 * row's balance and state, or null for an unknown user. postLedgerEntry takes the same lock again,
 * which costs nothing once held.
 */
export async function lockUserForMoney(
  tx: DbOrTx,
  userId: string,
): Promise<{ creditsCents: number; disabledAt: Date | null; closingAt: Date | null } | null> {
  const [row] = await tx
    .select({ creditsCents: users.creditsCents, disabledAt: users.disabledAt, closingAt: users.closingAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row ?? null;
}

/**
 * The only way a balance changes (docs/product.md#credits). In one transaction (a savepoint when given a
 * transaction): lock the user's row, refuse a result below zero, insert the immutable entry with its
 * balance after, write the balance. A repeated reference posts nothing and answers the first entry,
 * which makes every crediting idempotent - duplicated IPNs, retried jobs, racing instances.
 */
export async function postLedgerEntry(db: DbOrTx, input: PostLedgerEntryInput, events: DomainEvents): Promise<PostLedgerEntryResult> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents === 0) {
    throw new RangeError('amountCents must be a non-zero safe integer');
  }
  if (!input.reference || input.reference.length > 200) throw new RangeError('reference must be 1-200 characters');

  return db.transaction(async (tx) => {
    const earlier = await findByReference(tx, input.reference);
    if (earlier) return repeatOf(earlier, input);

    const [user] = await tx.select({ creditsCents: users.creditsCents }).from(users).where(eq(users.id, input.userId)).for('update');
    if (!user) throw notFound('User not found');
    const balanceAfter = user.creditsCents + input.amountCents;
    if (balanceAfter < 0) {
      throw unprocessable('Not enough credits for this change', 'INSUFFICIENT_CREDITS', {
        balanceCents: user.creditsCents,
        amountCents: input.amountCents,
      });
    }

    const [entry] = await tx
      .insert(creditLedgerEntries)
      .values({
        userId: input.userId,
        amountCents: input.amountCents,
        balanceAfterCents: balanceAfter,
        kind: input.kind,
        reference: input.reference,
        description: input.description,
        actorId: input.actorId ?? null,
        metadata: input.metadata ?? {},
        // The time of posting (after the lock), not of the transaction's start: keeps history in order.
        createdAt: sql`clock_timestamp()`,
      })
      .onConflictDoNothing({ target: creditLedgerEntries.reference })
      .returning();
    if (!entry) {
      // Another transaction posted this reference between our check and our insert.
      const winner = await findByReference(tx, input.reference);
      if (!winner) throw new AppError('CONFLICT', 'Ledger entry could not be posted; try again');
      return repeatOf(winner, input);
    }

    noteUserChanging(input.userId);
    await tx
      .update(users)
      .set({ creditsCents: balanceAfter, updatedAt: sql`now()` })
      .where(eq(users.id, input.userId));
    await events.emit(tx, { type: 'credits.changed', userId: input.userId, entry, balanceCents: balanceAfter });
    // A credit pays what the account owes first (docs/decisions/0120), in the same transaction.
    const settledCents = input.amountCents > 0 && input.kind !== 'settlement' ? await settleDebts(tx, entry, balanceAfter, events) : 0;
    return { entry, created: true, balanceCents: balanceAfter - settledCents, settledCents };
  });
}

/**
 * Pays the account's outstanding amounts, oldest first, from a credit just posted (user row locked by
 * the caller): one `settlement` entry of minus what it pays, referenced by the credit's entry id so a
 * credit settles at most once. Answers the cents paid.
 */
async function settleDebts(db: DbOrTx, credit: LedgerEntryRow, balanceCents: number, events: DomainEvents): Promise<number> {
  const open = await db
    .select()
    .from(creditDebts)
    .where(and(eq(creditDebts.userId, credit.userId), gt(creditDebts.outstandingCents, 0)))
    .orderBy(asc(creditDebts.createdAt), asc(creditDebts.id))
    .for('update');
  if (open.length === 0) return 0;
  const owed = open.reduce((sum, d) => sum + d.outstandingCents, 0);
  const pay = Math.min(credit.amountCents, balanceCents, owed);
  if (pay <= 0) return 0;
  const parts: { debtId: string; paymentId: string | null; cents: number }[] = [];
  let left = pay;
  for (const debt of open) {
    if (left === 0) break;
    const cents = Math.min(left, debt.outstandingCents);
    left -= cents;
    parts.push({ debtId: debt.id, paymentId: debt.paymentId, cents });
    await db
      .update(creditDebts)
      .set({
        outstandingCents: sql`${creditDebts.outstandingCents} - ${cents}`,
        settledAt: cents === debt.outstandingCents ? sql`now()` : null,
      })
      .where(eq(creditDebts.id, debt.id));
  }
  const posted = await postLedgerEntry(
    db,
    {
      userId: credit.userId,
      amountCents: -pay,
      kind: 'settlement',
      reference: `settlement:${credit.id}`,
      description:
        owed > pay
          ? `Paid towards the outstanding amount (${formatCredits(owed - pay)} credits still owed)`
          : `Outstanding amount paid (${formatCredits(pay)} credits)`,
      metadata: {
        creditEntryId: credit.id,
        creditReference: credit.reference,
        debts: parts,
        owedBeforeCents: owed,
        owedAfterCents: owed - pay,
      },
    },
    events,
  );
  return posted.created ? pay : 0;
}

export interface ReversalInput {
  userId: string;
  /** The credits to take back (what the reversed payment had credited). */
  cents: number;
  /** The reversal's ledger reference; the debt's reference too. */
  reference: string;
  reason: DebtReason;
  paymentId: string | null;
  description: string;
  debtDescription: string;
  metadata?: Record<string, unknown>;
  /** The entry's kind: `refund` (a reversed payment) unless said (`referral_clawback`, docs/decisions/0332). */
  kind?: LedgerKind;
}

export interface ReversalResult {
  /** Taken back from the balance by one `refund` entry. */
  takenCents: number;
  /** Not there to take: now an outstanding amount of the account. */
  owedCents: number;
  /** False when this reversal had already been recorded (a repeat). */
  created: boolean;
}

/**
 * Reverses credits whose money went back to the sender (docs/decisions/0120): takes back what the
 * balance holds with one `refund` entry, never below zero, and records the rest as an outstanding
 * amount (`credit_debts`) that later credits settle first. Idempotent by `reference`: a repeat
 * answers the first result and changes nothing.
 */
export async function reverseWithDebt(db: DbOrTx, input: ReversalInput, events: DomainEvents): Promise<ReversalResult> {
  if (!Number.isSafeInteger(input.cents) || input.cents <= 0) throw new RangeError('cents must be a positive safe integer');
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ creditsCents: users.creditsCents }).from(users).where(eq(users.id, input.userId)).for('update');
    if (!user) throw notFound('User not found');
    const earlierEntry = await findByReference(tx, input.reference);
    const [earlierDebt] = await tx.select().from(creditDebts).where(eq(creditDebts.reference, input.reference)).limit(1);
    if (earlierEntry || earlierDebt) {
      return { takenCents: earlierEntry ? -earlierEntry.amountCents : 0, owedCents: earlierDebt?.amountCents ?? 0, created: false };
    }
    const takenCents = Math.min(input.cents, user.creditsCents);
    const owedCents = input.cents - takenCents;
    const metadata = { ...input.metadata, reason: input.reason, reversedCents: input.cents, owedCents };
    if (takenCents > 0) {
      await postLedgerEntry(
        tx,
        {
          userId: input.userId,
          amountCents: -takenCents,
          kind: input.kind ?? 'refund',
          reference: input.reference,
          description: input.description,
          metadata,
        },
        events,
      );
    }
    if (owedCents > 0) {
      await tx.insert(creditDebts).values({
        userId: input.userId,
        reference: input.reference,
        paymentId: input.paymentId,
        reason: input.reason,
        amountCents: owedCents,
        outstandingCents: owedCents,
        description: input.debtDescription,
      });
      noteUserChanging(input.userId);
    }
    return { takenCents, owedCents, created: true };
  });
}

/** The account's debts, newest first (settled ones too, for history). */
export async function listDebts(db: DbOrTx, userId: string): Promise<CreditDebtRow[]> {
  return db
    .select()
    .from(creditDebts)
    .where(eq(creditDebts.userId, userId))
    .orderBy(desc(creditDebts.createdAt), desc(creditDebts.id))
    .limit(100);
}

export async function outstandingCents(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${creditDebts.outstandingCents}), 0)` })
    .from(creditDebts)
    .where(eq(creditDebts.userId, userId));
  return Number(row?.n ?? 0);
}

/**
 * The newest of this user's entries of one kind whose reference is `reference` or starts with
 * `reference:` (a top-up credited in parts: `payment:<id>`, then `payment:<id>:to:<cents>`), or null.
 */
export async function latestEntryIdFor(db: DbOrTx, userId: string, kind: LedgerKind, reference: string): Promise<string | null> {
  const [row] = await db
    .select({ id: creditLedgerEntries.id })
    .from(creditLedgerEntries)
    .where(
      and(
        eq(creditLedgerEntries.userId, userId),
        eq(creditLedgerEntries.kind, kind),
        or(eq(creditLedgerEntries.reference, reference), like(creditLedgerEntries.reference, `${reference.replace(/[\\%_]/g, '\\$&')}:%`)),
      ),
    )
    .orderBy(desc(creditLedgerEntries.createdAt), desc(creditLedgerEntries.amountCents))
    .limit(1);
  return row?.id ?? null;
}

export async function getBalanceCents(db: DbOrTx, userId: string): Promise<number | null> {
  const [row] = await db.select({ creditsCents: users.creditsCents }).from(users).where(eq(users.id, userId)).limit(1);
  return row ? row.creditsCents : null;
}

export async function listLedgerEntries(
  db: DbOrTx,
  userId: string,
  page: { page: number; pageSize: number },
): Promise<{ rows: LedgerEntryRow[]; total: number }> {
  const where = eq(creditLedgerEntries.userId, userId);
  const rows = await db
    .select()
    .from(creditLedgerEntries)
    .where(where)
    // Same-instant entries stay in posting order through the running balance.
    .orderBy(desc(creditLedgerEntries.createdAt), desc(creditLedgerEntries.balanceAfterCents), desc(creditLedgerEntries.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const [totalRow] = await db.select({ n: count() }).from(creditLedgerEntries).where(where);
  return { rows, total: totalRow?.n ?? 0 };
}

export function toLedgerEntryDto(row: LedgerEntryRow): LedgerEntry {
  return {
    _id: row.id,
    kind: row.kind,
    amountCents: row.amountCents,
    balanceAfterCents: row.balanceAfterCents,
    reference: row.reference,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
  };
}
