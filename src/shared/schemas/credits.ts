import { z } from 'zod';
import { pageShape, uuidField } from './common.js';

export const LEDGER_ENTRY_KINDS = ['payment', 'reward', 'adjustment', 'spend', 'refund', 'settlement'] as const;
export const ledgerEntryKindSchema = z.enum(LEDGER_ENTRY_KINDS);

/** One immutable ledger entry; amounts in cents (1 credit = 1 USD = 100 cents). */
export const ledgerEntrySchema = z
  .object({
    _id: z.string(),
    kind: ledgerEntryKindSchema,
    amountCents: z.number().int(),
    balanceAfterCents: z.number().int(),
    reference: z.string(),
    description: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'LedgerEntry' });
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const ledgerHistoryResponseSchema = z.object({
  entries: z.array(ledgerEntrySchema),
  balanceCents: z.number().int(),
  ...pageShape,
});
export type LedgerHistoryResponse = z.infer<typeof ledgerHistoryResponseSchema>;

/** Staff adjustment: a signed amount in USD and a reason that stays on the entry. */
export const creditAdjustmentBodySchema = z.object({
  userId: uuidField('Unknown user'),
  amount: z
    .number({ error: 'Enter an amount' })
    .refine((v) => Number.isFinite(v) && v !== 0, 'Enter a non-zero amount')
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'Use at most two decimals (cents)')
    .refine((v) => Math.abs(v) <= 1_000_000, 'That amount is too large'),
  reason: z.string({ error: 'Give a reason' }).trim().min(3, 'Give a reason').max(500, 'Keep the reason under 500 characters'),
  /** Lets a retried request post once. */
  idempotencyKey: z.string().trim().min(8).max(100).regex(/^[A-Za-z0-9_-]+$/).optional(),
});
export type CreditAdjustmentBody = z.infer<typeof creditAdjustmentBodySchema>;
