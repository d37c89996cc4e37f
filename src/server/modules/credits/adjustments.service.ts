import { randomUUID } from 'node:crypto';
import { alias } from 'drizzle-orm/pg-core';
import { and, desc, eq, type SQL } from 'drizzle-orm';
import { ADJUSTMENT_APPROVAL_CENTS } from '#shared/constants.js';
import { formatCredits } from '#shared/fees.js';
import type { AdjustmentRequest } from '#shared/schemas/credits.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { AppError, notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { findUserById } from '#server/modules/users/users.service.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import { creditAdjustmentRequests, creditLedgerEntries, type AdjustmentRequestRow } from './credits.tables.js';
import { lockUserForMoney, postLedgerEntry, type PostLedgerEntryResult } from './ledger.service.js';
import { ledgerText } from '#shared/ledger-texts.js';

export interface AdjustmentInput {
  userId: string;
  amountCents: number;
  /** Internal: staff and the audit log read it, the customer never does (decision 0235). */
  reason: string;
  /** What the customer reads on the entry; a neutral default when absent. */
  customerNote?: string;
  /** The balance the staff member confirmed; when it moved since, nothing is applied (409). */
  expectedBalanceCents?: number;
  /** The same key posts once: a retried request answers the first entry. */
  idempotencyKey?: string;
  actorId: string;
}

/**
 * A staff adjustment of a balance: the ledger entry and its audit record commit together (every staff
 * action is audited). The entry's description is the customer's note; the internal reason stays in the
 * entry's metadata (console only) and the audit log (decision 0235).
 */
export async function adjustBalance(
  db: Db,
  input: AdjustmentInput,
  events: DomainEvents,
): Promise<PostLedgerEntryResult & { balanceBeforeCents: number }> {
  const { userId, amountCents, reason, customerNote, expectedBalanceCents, idempotencyKey, actorId } = input;
  const reference = `adjustment:${idempotencyKey ?? randomUUID()}`;
  return db.transaction(async (tx) => {
    const target = await lockUserForMoney(tx, userId);
    if (!target) throw notFound('User not found');
    const repeat = await tx
      .select({ id: creditLedgerEntries.id })
      .from(creditLedgerEntries)
      .where(eq(creditLedgerEntries.reference, reference))
      .limit(1);
    if (repeat.length === 0 && expectedBalanceCents !== undefined && expectedBalanceCents !== target.creditsCents) {
      throw new AppError(
        'BALANCE_CHANGED',
        `The balance changed to ${formatCredits(target.creditsCents)} credits since you looked. Check the new figures and confirm again.`,
        {
          details: { balanceCents: target.creditsCents },
        },
      );
    }
    const posted = await postLedgerEntry(
      tx,
      {
        userId,
        amountCents,
        kind: 'adjustment',
        reference,
        description: customerNote || ledgerText('adjustmentBySupport', {}),
        actorId,
        metadata: { internalReason: reason },
      },
      events,
    );
    const balanceBeforeCents = posted.entry.balanceAfterCents - posted.entry.amountCents;
    if (posted.created) {
      const actor = await findUserById(tx, actorId);
      await recordAudit(tx, {
        actor: { id: actorId, username: actor?.username ?? 'unknown' },
        action: 'credits.adjusted',
        targetType: 'user',
        targetId: userId,
        before: { balanceCents: balanceBeforeCents },
        after: {
          balanceCents: posted.balanceCents,
          amountCents: posted.entry.amountCents,
          entryId: posted.entry.id,
          settledCents: posted.settledCents,
          customerNote: posted.entry.description,
        },
        reason,
      });
    }
    return { ...posted, balanceBeforeCents };
  });
}

// ---- Four eyes (docs/security.md#staff-powers) -----------------------------------------------------------

/** Whether an adjustment of this amount waits for a second admin instead of being posted. */
export function needsSecondAdmin(amountCents: number): boolean {
  return Math.abs(amountCents) >= ADJUSTMENT_APPROVAL_CENTS;
}

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');

async function loadRequests(db: DbOrTx, where: SQL | undefined, limit = 200): Promise<AdjustmentRequest[]> {
  const rows = await db
    .select({ r: creditAdjustmentRequests, username: users.username, requestedByName: requester.username, decidedByName: decider.username })
    .from(creditAdjustmentRequests)
    .innerJoin(users, eq(users.id, creditAdjustmentRequests.userId))
    .innerJoin(requester, eq(requester.id, creditAdjustmentRequests.requestedBy))
    .leftJoin(decider, eq(decider.id, creditAdjustmentRequests.decidedBy))
    .where(where)
    .orderBy(desc(creditAdjustmentRequests.requestedAt), desc(creditAdjustmentRequests.id))
    .limit(limit);
  return rows.map(({ r, username, requestedByName, decidedByName }) => ({
    _id: r.id,
    user: { userId: r.userId, username },
    amountCents: r.amountCents,
    reason: r.reason,
    customerNote: r.customerNote,
    requestedBy: { userId: r.requestedBy, username: requestedByName },
    requestedAt: r.requestedAt.toISOString(),
    status: r.status,
    decidedBy: r.decidedBy ? { userId: r.decidedBy, username: decidedByName ?? 'unknown' } : null,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decisionNote: r.decisionNote,
    ledgerEntryId: r.ledgerEntryId,
  }));
}

export function listAdjustmentRequests(
  db: DbOrTx,
  filter: { status?: AdjustmentRequest['status'] | undefined; userId?: string | undefined },
): Promise<AdjustmentRequest[]> {
  const conditions = [
    filter.status ? eq(creditAdjustmentRequests.status, filter.status) : undefined,
    filter.userId ? eq(creditAdjustmentRequests.userId, filter.userId) : undefined,
  ].filter((c): c is SQL => c !== undefined);
  return loadRequests(db, conditions.length ? and(...conditions) : undefined);
}

async function oneRequest(db: DbOrTx, id: string): Promise<AdjustmentRequest> {
  const [found] = await loadRequests(db, eq(creditAdjustmentRequests.id, id), 1);
  if (!found) throw notFound('Adjustment request not found');
  return found;
}

/**
 * Stores a large adjustment as a request for a second admin; nothing moves yet. The same idempotency key
 * answers the first request. Audit-logged in the same transaction.
 */
export async function requestAdjustment(db: Db, input: AdjustmentInput): Promise<{ request: AdjustmentRequest; created: boolean }> {
  const { userId, amountCents, reason, customerNote, idempotencyKey, actorId } = input;
  return db.transaction(async (tx) => {
    const target = await findUserById(tx, userId);
    if (!target) throw notFound('User not found');
    const [inserted] = await tx
      .insert(creditAdjustmentRequests)
      .values({
        userId,
        amountCents,
        reason,
        customerNote: customerNote || null,
        idempotencyKey: idempotencyKey ?? null,
        requestedBy: actorId,
      })
      .onConflictDoNothing({ target: creditAdjustmentRequests.idempotencyKey })
      .returning();
    if (!inserted) {
      const [first] = await tx
        .select()
        .from(creditAdjustmentRequests)
        .where(eq(creditAdjustmentRequests.idempotencyKey, idempotencyKey!))
        .limit(1);
      if (!first || first.userId !== userId || first.amountCents !== amountCents) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This key was already used for another adjustment');
      }
      return { request: await oneRequest(tx, first.id), created: false };
    }
    const actor = await findUserById(tx, actorId);
    await recordAudit(tx, {
      actor: { id: actorId, username: actor?.username ?? 'unknown' },
      action: 'credits.adjustment_requested',
      targetType: 'user',
      targetId: userId,
      after: { amountCents, requestId: inserted.id, customerNote: customerNote || null },
      reason,
    });
    return { request: await oneRequest(tx, inserted.id), created: true };
  });
}

/** Locks a request after its user's row (decision 0301), refusing one already decided. */
async function lockPending(tx: DbOrTx, id: string): Promise<AdjustmentRequestRow> {
  const [found] = await tx
    .select({ userId: creditAdjustmentRequests.userId })
    .from(creditAdjustmentRequests)
    .where(eq(creditAdjustmentRequests.id, id))
    .limit(1);
  if (!found) throw notFound('Adjustment request not found');
  await lockUserForMoney(tx, found.userId);
  const [row] = await tx.select().from(creditAdjustmentRequests).where(eq(creditAdjustmentRequests.id, id)).for('update');
  if (!row) throw notFound('Adjustment request not found');
  if (row.status !== 'pending') {
    throw new AppError('ALREADY_DECIDED', `This adjustment was already ${row.status}`, { details: { status: row.status } });
  }
  return row;
}

/**
 * A second admin approves: the adjustment is posted (reference `adjustment-request:<id>`, so it posts
 * once however often this is called) and the audit log names both admins. The admin who asked cannot
 * approve their own request (403 FOUR_EYES_REQUIRED).
 */
export async function approveAdjustment(db: Db, id: string, approverId: string, events: DomainEvents): Promise<AdjustmentRequest> {
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    if (row.requestedBy === approverId) {
      throw new AppError('FOUR_EYES_REQUIRED', 'Another admin must approve an adjustment you asked for (four eyes).');
    }
    const posted = await postLedgerEntry(
      tx,
      {
        userId: row.userId,
        amountCents: row.amountCents,
        kind: 'adjustment',
        reference: `adjustment-request:${row.id}`,
        description: row.customerNote || ledgerText('adjustmentBySupport', {}),
        actorId: approverId,
        metadata: { internalReason: row.reason, requestId: row.id, requestedBy: row.requestedBy, approvedBy: approverId },
      },
      events,
    );
    await tx
      .update(creditAdjustmentRequests)
      .set({ status: 'approved', decidedBy: approverId, decidedAt: new Date(), ledgerEntryId: posted.entry.id })
      .where(eq(creditAdjustmentRequests.id, id));
    const [approver, asker] = await Promise.all([findUserById(tx, approverId), findUserById(tx, row.requestedBy)]);
    await recordAudit(tx, {
      actor: { id: approverId, username: approver?.username ?? 'unknown' },
      action: 'credits.adjusted',
      targetType: 'user',
      targetId: row.userId,
      before: { balanceCents: posted.entry.balanceAfterCents - posted.entry.amountCents },
      after: {
        balanceCents: posted.balanceCents,
        amountCents: posted.entry.amountCents,
        entryId: posted.entry.id,
        settledCents: posted.settledCents,
        customerNote: posted.entry.description,
        requestId: row.id,
        requestedBy: asker?.username ?? row.requestedBy,
        approvedBy: approver?.username ?? approverId,
      },
      reason: row.reason,
    });
    return oneRequest(tx, id);
  });
}

/** Any admin (the one who asked included: a withdrawal) closes a pending request without moving money. */
export async function rejectAdjustment(db: Db, id: string, actorId: string, note: string): Promise<AdjustmentRequest> {
  return db.transaction(async (tx) => {
    const row = await lockPending(tx, id);
    await tx
      .update(creditAdjustmentRequests)
      .set({ status: 'rejected', decidedBy: actorId, decidedAt: new Date(), decisionNote: note })
      .where(eq(creditAdjustmentRequests.id, id));
    const actor = await findUserById(tx, actorId);
    await recordAudit(tx, {
      actor: { id: actorId, username: actor?.username ?? 'unknown' },
      action: 'credits.adjustment_rejected',
      targetType: 'user',
      targetId: row.userId,
      before: { status: 'pending' },
      after: { status: 'rejected', requestId: row.id, amountCents: row.amountCents },
      reason: note,
    });
    return oneRequest(tx, id);
  });
}
