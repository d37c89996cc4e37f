import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Charge, CreateChargeBody } from '#shared/schemas/charges.js';
import { isUuid } from '#shared/schemas/common.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { AppError, notFound, unprocessable } from '#server/errors.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { lockUserForMoney, postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import { charges, type ChargeRow } from './charges.tables.js';
import { ledgerText } from '#shared/ledger-texts.js';

export function toChargeDto(row: ChargeRow): Charge {
  return {
    id: row.id,
    userId: row.userId,
    amountCents: row.amountCents,
    description: row.description,
    metadata: row.metadata,
    status: row.status,
    ledgerEntryId: row.ledgerEntryId ?? '',
    refundLedgerEntryId: row.refundLedgerEntryId,
    createdAt: row.createdAt.toISOString(),
    refundedAt: row.refundedAt?.toISOString() ?? null,
  };
}

/** The body as the server understood it, in one canonical text: equal bodies hash equal. */
export function requestHash(body: CreateChargeBody): string {
  const metadata = Object.fromEntries(Object.entries(body.metadata ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const canonical = JSON.stringify([body.userId.toLowerCase(), body.amountCents, body.description, metadata]);
  return createHash('sha256').update(canonical).digest('hex');
}

export interface ChargeResult {
  charge: ChargeRow;
  /** The user's balance right after this charge (or refund). */
  balanceCents: number;
  /** True when the answer is an earlier request's (same API key, Idempotency-Key and body). */
  replayed: boolean;
}

/**
 * Charges against a user's credits for the operator's own services (docs/decisions/0165). A charge is
 * one transaction: its row (unique per API key and Idempotency-Key), the user's balance row lock, the
 * `spend` ledger entry (`charge:<id>`). A refund is another: the charge row lock, a `refund` entry
 * (`charge-refund:<id>`), the charge marked refunded.
 */
export class ChargeService {
  constructor(
    private readonly db: Db,
    private readonly events: DomainEvents,
  ) {}

  async create(apiKeyId: string, idempotencyKey: string, body: CreateChargeBody): Promise<ChargeResult> {
    const hash = requestHash(body);
    const metadata = body.metadata ?? {};
    return this.db.transaction(async (tx) => {
      const id = randomUUID();
      // The user's row first (decision 0301): parallel charges of one user queue here, and a parallel
      // request with the same key then finds the first one's row below (or goes on as the first when
      // that one rolled back).
      const user = await lockUserForMoney(tx, body.userId);
      if (!user) throw notFound('User not found');
      const [inserted] = await tx
        .insert(charges)
        .values({
          id,
          apiKeyId,
          idempotencyKey,
          requestHash: hash,
          userId: body.userId,
          amountCents: body.amountCents,
          description: body.description,
          metadata,
        })
        .onConflictDoNothing({ target: [charges.apiKeyId, charges.idempotencyKey] })
        .returning({ id: charges.id });
      if (!inserted) {
        const [first] = await tx
          .select()
          .from(charges)
          .where(and(eq(charges.apiKeyId, apiKeyId), eq(charges.idempotencyKey, idempotencyKey)))
          .limit(1);
        if (!first) throw new AppError('CONFLICT', 'A request with this Idempotency-Key is still being processed; try again');
        if (first.requestHash !== hash) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request body', {
            details: { chargeId: first.id },
          });
        }
        return { charge: first, balanceCents: await this.balanceAfter(tx, first.ledgerEntryId), replayed: true };
      }

      // A closing account's credits are not spent through the API (decision 0255); nothing is kept, so the
      // same request succeeds if the owner restores the account.
      if (user.closingAt) throw new AppError('ACCOUNT_CLOSING', 'This account is closing and cannot be charged');
      // A disabled account is locked out (often under review): its credits are not spent behind its back.
      // The refusal keeps nothing, so the same request goes through once staff re-enable the account.
      if (user.disabledAt) throw unprocessable('This account is disabled and cannot be charged', 'USER_DISABLED');
      if (user.creditsCents < body.amountCents) {
        throw unprocessable('Not enough credits for this charge', 'INSUFFICIENT_CREDITS', {
          balanceCents: user.creditsCents,
          amountCents: body.amountCents,
          shortfallCents: body.amountCents - user.creditsCents,
        });
      }
      const posted = await postLedgerEntry(
        tx,
        {
          userId: body.userId,
          amountCents: -body.amountCents,
          kind: 'spend',
          reference: `charge:${id}`,
          description: body.description,
          metadata: { chargeId: id, apiKeyId, chargeMetadata: metadata },
        },
        this.events,
      );
      const [charge] = await tx.update(charges).set({ ledgerEntryId: posted.entry.id }).where(eq(charges.id, id)).returning();
      await this.events.emit(tx, {
        type: 'charge.changed',
        userId: body.userId,
        refunded: false,
        charge: { id, amountCents: body.amountCents, description: body.description, ledgerEntryId: posted.entry.id },
      });
      return { charge: charge!, balanceCents: posted.balanceCents, replayed: false };
    });
  }

  async get(id: string): Promise<ChargeRow> {
    if (!isUuid(id)) throw notFound('Charge not found');
    const [row] = await this.db.select().from(charges).where(eq(charges.id, id)).limit(1);
    if (!row) throw notFound('Charge not found');
    return row;
  }

  /** Refunds a charge in full, once: a second refund answers 409 ALREADY_REFUNDED and changes nothing. */
  async refund(id: string): Promise<ChargeResult> {
    if (!isUuid(id)) throw notFound('Charge not found');
    return this.db.transaction(async (tx) => {
      // The owner's row before the charge's (decision 0301); a charge never changes owner, so reading it first is safe.
      const [owner] = await tx.select({ userId: charges.userId }).from(charges).where(eq(charges.id, id)).limit(1);
      if (!owner) throw notFound('Charge not found');
      await lockUserForMoney(tx, owner.userId);
      const [charge] = await tx.select().from(charges).where(eq(charges.id, id)).for('update');
      if (!charge) throw notFound('Charge not found');
      if (charge.status === 'refunded') {
        throw new AppError('ALREADY_REFUNDED', 'This charge was already refunded', {
          details: { refundLedgerEntryId: charge.refundLedgerEntryId, refundedAt: charge.refundedAt?.toISOString() ?? null },
        });
      }
      const posted = await postLedgerEntry(
        tx,
        {
          userId: charge.userId,
          amountCents: charge.amountCents,
          kind: 'refund',
          reference: `charge-refund:${charge.id}`,
          description: ledgerText('chargeRefund', { description: charge.description }),
          metadata: { chargeId: charge.id, apiKeyId: charge.apiKeyId },
        },
        this.events,
      );
      const [refunded] = await tx
        .update(charges)
        .set({ status: 'refunded', refundLedgerEntryId: posted.entry.id, refundedAt: posted.entry.createdAt })
        .where(eq(charges.id, id))
        .returning();
      await this.events.emit(tx, {
        type: 'charge.changed',
        userId: charge.userId,
        refunded: true,
        charge: { id: charge.id, amountCents: charge.amountCents, description: charge.description, ledgerEntryId: posted.entry.id },
      });
      return { charge: refunded!, balanceCents: posted.balanceCents, replayed: false };
    });
  }

  private async balanceAfter(db: DbOrTx, entryId: string | null): Promise<number> {
    if (!entryId) return 0;
    const [entry] = await db
      .select({ balanceAfterCents: creditLedgerEntries.balanceAfterCents })
      .from(creditLedgerEntries)
      .where(eq(creditLedgerEntries.id, entryId))
      .limit(1);
    return entry?.balanceAfterCents ?? 0;
  }
}
