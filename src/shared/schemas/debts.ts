import { z } from 'zod';

/**
 * Outstanding amounts (docs/decisions/0120): credits a reversed payment (refund, chargeback) could not
 * take back because they were already spent. Later credits settle them first.
 */
export const DEBT_REASONS = ['refunded', 'chargeback'] as const;

export const debtSchema = z
  .object({
    _id: z.string(),
    paymentId: z.string().nullable(),
    reason: z.enum(DEBT_REASONS),
    /** What could not be taken back when the payment was reversed, in cents. */
    amountCents: z.number().int(),
    /** What is still owed, in cents. */
    outstandingCents: z.number().int(),
    description: z.string(),
    createdAt: z.string(),
    settledAt: z.string().nullable(),
  })
  .meta({ id: 'Debt' });
export type Debt = z.infer<typeof debtSchema>;

/** GET /api/credits/outstanding: the caller's own outstanding amount and the reversals behind it. */
export const myOutstandingResponseSchema = z.object({
  outstandingCents: z.number().int(),
  debts: z.array(debtSchema),
});
export type MyOutstandingResponse = z.infer<typeof myOutstandingResponseSchema>;

/** One flagged account in the operator console. */
export const flaggedAccountSchema = z.object({
  userId: z.string(),
  username: z.string().nullable(),
  outstandingCents: z.number().int(),
  openDebts: z.number().int(),
  since: z.string(),
  debts: z.array(debtSchema),
});
export type FlaggedAccount = z.infer<typeof flaggedAccountSchema>;

export const adminOutstandingQuerySchema = z.object({
  userId: z.uuid('Unknown user').optional(),
});

/** GET /api/admin/credits/outstanding: accounts that owe credits, most owed first. */
export const adminOutstandingResponseSchema = z.object({
  accounts: z.array(flaggedAccountSchema),
  totalOutstandingCents: z.number().int(),
});
export type AdminOutstandingResponse = z.infer<typeof adminOutstandingResponseSchema>;
