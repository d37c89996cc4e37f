import { count, desc, eq, sql } from 'drizzle-orm';
import type { LedgerEntry } from '../../../shared/schemas/credits.js';
import type { DbOrTx } from '../../db/client.js';
import { AppError, conflict, notFound, unprocessable } from '../../errors.js';
import { users } from '../users/users.tables.js';
import type { WebhookEvents } from '../webhooks/webhook-events.js';
import { creditLedgerEntries, type LedgerEntryRow, type LedgerKind } from './credits.tables.js';
import { noteUserChanging } from '../users/user-read-cache.js';

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
  balanceCents: number;
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
  return { entry: existing, created: false, balanceCents: existing.balanceAfterCents };
}

/**
 * The only way a balance changes (design.md section 5). In one transaction (a savepoint when given a
 * transaction): lock the user's row, refuse a result below zero, insert the immutable entry with its
 * balance after, write the balance. A repeated reference posts nothing and answers the first entry,
 * which makes every crediting idempotent - duplicated IPNs, retried jobs, racing instances.
 */
export async function postLedgerEntry(db: DbOrTx, input: PostLedgerEntryInput, webhookEvents: WebhookEvents): Promise<PostLedgerEntryResult> {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents === 0) {
    throw new RangeError('amountCents must be a non-zero safe integer');
  }
  if (!input.reference || input.reference.length > 200) throw new RangeError('reference must be 1-200 characters');

  return db.transaction(async (tx) => {
    const earlier = await findByReference(tx, input.reference);
    if (earlier) return repeatOf(earlier, input);

    const [user] = await tx
      .select({ creditsCents: users.creditsCents })
      .from(users)
      .where(eq(users.id, input.userId))
      .for('update');
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
      if (!winner) throw new AppError(409, 'CONFLICT', 'Ledger entry could not be posted; try again');
      return repeatOf(winner, input);
    }

    noteUserChanging(input.userId);
    await tx.update(users).set({ creditsCents: balanceAfter, updatedAt: sql`now()` }).where(eq(users.id, input.userId));
    await webhookEvents.enqueue(tx, input.userId, 'credits.changed', {
      entryId: entry.id,
      kind: entry.kind,
      amountCents: entry.amountCents,
      balanceCents: balanceAfter,
      reference: entry.reference,
      description: entry.description,
      createdAt: entry.createdAt.toISOString(),
    });
    return { entry, created: true, balanceCents: balanceAfter };
  });
}

/**
 * Takes back up to `maxCents` from a user (a refunded payment's credits), as much as the balance
 * allows without going below zero, as one `refund` entry. Answers the cents taken (0 when the balance
 * is empty). A repeated reference takes nothing more and answers the first entry's amount.
 */
export async function reverseUpTo(
  db: DbOrTx,
  input: Omit<PostLedgerEntryInput, 'amountCents' | 'kind'> & { maxCents: number },
  webhookEvents: WebhookEvents,
): Promise<number> {
  if (!Number.isSafeInteger(input.maxCents) || input.maxCents <= 0) throw new RangeError('maxCents must be a positive safe integer');
  return db.transaction(async (tx) => {
    const earlier = await findByReference(tx, input.reference);
    if (earlier) return -earlier.amountCents;
    // The same lock postLedgerEntry takes: the balance read here is the one the debit applies to.
    const [user] = await tx.select({ creditsCents: users.creditsCents }).from(users).where(eq(users.id, input.userId)).for('update');
    if (!user) throw notFound('User not found');
    const cents = Math.min(input.maxCents, user.creditsCents);
    if (cents <= 0) return 0;
    const { maxCents: _max, ...rest } = input;
    const posted = await postLedgerEntry(tx, { ...rest, amountCents: -cents, kind: 'refund' }, webhookEvents);
    return -posted.entry.amountCents;
  });
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
