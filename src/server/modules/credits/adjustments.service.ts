import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { formatCredits } from '#shared/fees.js';
import { DEFAULT_ADJUSTMENT_NOTE } from '#shared/schemas/credits.js';
import type { Db } from '#server/db/client.js';
import { AppError, notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { findUserById } from '#server/modules/users/users.service.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import { creditLedgerEntries } from './credits.tables.js';
import { postLedgerEntry, type PostLedgerEntryResult } from './ledger.service.js';

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
  webhookEvents: WebhookEvents,
): Promise<PostLedgerEntryResult & { balanceBeforeCents: number }> {
  const { userId, amountCents, reason, customerNote, expectedBalanceCents, idempotencyKey, actorId } = input;
  const reference = `adjustment:${idempotencyKey ?? randomUUID()}`;
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ creditsCents: users.creditsCents }).from(users).where(eq(users.id, userId)).for('update');
    if (!target) throw notFound('User not found');
    const repeat = await tx.select({ id: creditLedgerEntries.id }).from(creditLedgerEntries).where(eq(creditLedgerEntries.reference, reference)).limit(1);
    if (repeat.length === 0 && expectedBalanceCents !== undefined && expectedBalanceCents !== target.creditsCents) {
      throw new AppError(409, 'BALANCE_CHANGED', `The balance changed to ${formatCredits(target.creditsCents)} credits since you looked. Check the new figures and confirm again.`, {
        details: { balanceCents: target.creditsCents },
      });
    }
    const posted = await postLedgerEntry(tx, {
      userId,
      amountCents,
      kind: 'adjustment',
      reference,
      description: customerNote || DEFAULT_ADJUSTMENT_NOTE,
      actorId,
      metadata: { internalReason: reason },
    }, webhookEvents);
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
