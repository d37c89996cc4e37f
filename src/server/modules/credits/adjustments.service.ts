import { randomUUID } from 'node:crypto';
import type { Db } from '#server/db/client.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { findUserById } from '#server/modules/users/users.service.js';
import type { WebhookEvents } from '#server/modules/webhooks/webhook-events.js';
import { postLedgerEntry, type PostLedgerEntryResult } from './ledger.service.js';

export interface AdjustmentInput {
  userId: string;
  amountCents: number;
  reason: string;
  /** The same key posts once: a retried request answers the first entry. */
  idempotencyKey?: string;
  actorId: string;
}

/**
 * A staff adjustment of a balance: the ledger entry, with its reason, and its audit record commit
 * together (every staff action is audited).
 */
export async function adjustBalance(db: Db, input: AdjustmentInput, webhookEvents: WebhookEvents): Promise<PostLedgerEntryResult> {
  const { userId, amountCents, reason, idempotencyKey, actorId } = input;
  return db.transaction(async (tx) => {
    const posted = await postLedgerEntry(tx, {
      userId,
      amountCents,
      kind: 'adjustment',
      reference: `adjustment:${idempotencyKey ?? randomUUID()}`,
      description: reason,
      actorId,
    }, webhookEvents);
    if (posted.created) {
      const actor = await findUserById(tx, actorId);
      await recordAudit(tx, {
        actor: { id: actorId, username: actor?.username ?? 'unknown' },
        action: 'credits.adjusted',
        targetType: 'user',
        targetId: userId,
        before: { balanceCents: posted.entry.balanceAfterCents - posted.entry.amountCents },
        after: { balanceCents: posted.balanceCents, amountCents: posted.entry.amountCents, entryId: posted.entry.id, settledCents: posted.settledCents },
        reason,
      });
    }
    return posted;
  });
}
