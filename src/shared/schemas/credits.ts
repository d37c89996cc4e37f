import { z } from 'zod';
import { INVALID_CURSOR_MESSAGE, decodeCursor, encodeCursor, pageShape, paginationQuerySchema, uuidField } from './common.js';
import { STEP_UP_FIELDS } from './two-factor.js';

export const LEDGER_ENTRY_KINDS = [
  'payment',
  'reward',
  'adjustment',
  'spend',
  'refund',
  'settlement',
  'forfeit',
  // Referrals (docs/product.md#referrals): the referrer's share, the referred person's bonus, and a share taken back.
  'referral_reward',
  'welcome_bonus',
  'referral_clawback',
] as const;
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

/**
 * Where a page of the ledger history ends (docs/decisions/0333): the sort key of its last entry, the
 * instant to the microsecond (ISO 8601, UTC), the running balance and the id, in the history's order.
 */
export interface LedgerCursor {
  createdAt: string;
  balanceAfterCents: number;
  id: string;
}

const LEDGER_CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const encodeLedgerCursor = (c: LedgerCursor): string => encodeCursor([c.createdAt, String(c.balanceAfterCents), c.id]);

/** The key a ledger cursor names, or null when it is not a cursor of the ledger history. */
export function decodeLedgerCursor(cursor: string): LedgerCursor | null {
  const parts = decodeCursor(cursor, 3);
  if (!parts) return null;
  const [createdAt = '', balance = '', id = ''] = parts;
  if (!LEDGER_CURSOR_INSTANT.test(createdAt) || Number.isNaN(Date.parse(createdAt))) return null;
  if (!/^-?\d{1,18}$/.test(balance) || !Number.isSafeInteger(Number(balance))) return null;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  return { createdAt, balanceAfterCents: Number(balance), id };
}

/**
 * `?page=&pageSize=` as before, or `?cursor=` (the `nextCursor` of the previous answer) to read the next
 * older page from where that one ended, at the same cost however deep it is (docs/decisions/0333).
 * With a cursor, `page` is not read.
 */
export const ledgerHistoryQuerySchema = paginationQuerySchema.extend({
  cursor: z
    .string()
    .refine((v) => decodeLedgerCursor(v) !== null, INVALID_CURSOR_MESSAGE)
    .optional(),
});
export type LedgerHistoryQuery = z.input<typeof ledgerHistoryQuerySchema>;

export const ledgerHistoryResponseSchema = z.object({
  entries: z.array(ledgerEntrySchema),
  balanceCents: z.number().int(),
  ...pageShape,
  /** The cursor of the next older page, or null when this page holds the oldest entry. */
  nextCursor: z.string().nullable(),
});
export type LedgerHistoryResponse = z.infer<typeof ledgerHistoryResponseSchema>;

/** What a customer reads on an adjustment when staff leave no note for them (docs/decisions/0235). */
export const DEFAULT_ADJUSTMENT_NOTE = 'Balance adjustment by support';

/**
 * Staff adjustment (docs/decisions/0235): a signed amount in USD, an internal reason that only staff
 * ever see (audit log, the console's ledger), and an optional note that is what the customer reads.
 */
export const creditAdjustmentBodySchema = z.object({
  userId: uuidField('Unknown user'),
  amount: z
    .number({ error: 'Enter an amount' })
    .refine((v) => Number.isFinite(v) && v !== 0, 'Enter a non-zero amount')
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'Use at most two decimals (cents)')
    .refine((v) => Math.abs(v) <= 1_000_000, 'That amount is too large'),
  reason: z.string({ error: 'Give a reason' }).trim().min(3, 'Give a reason').max(500, 'Keep the reason under 500 characters'),
  /** Shown to the customer in their credit history; empty means DEFAULT_ADJUSTMENT_NOTE. */
  customerNote: z.string().trim().max(200, 'Keep the note under 200 characters').optional(),
  /**
   * The balance the confirmation showed, in cents: when the balance has changed since, nothing is
   * posted and the answer is 409 BALANCE_CHANGED, so staff confirm against the real figures.
   */
  expectedBalanceCents: z.number().int().min(0).optional(),
  /** Lets a retried request post once. */
  idempotencyKey: z
    .string()
    .trim()
    .min(8)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
  /** Moving money is a staff power: the admin's second factor (docs/security.md#staff-powers). */
  ...STEP_UP_FIELDS,
});
export type CreditAdjustmentBody = z.infer<typeof creditAdjustmentBodySchema>;

/** A ledger entry as the operator console sees it: with the internal reason of an adjustment. */
export const adminLedgerEntrySchema = ledgerEntrySchema.extend({ internalReason: z.string().nullable() });
export type AdminLedgerEntry = z.infer<typeof adminLedgerEntrySchema>;

// ---- Four eyes on large adjustments (docs/security.md#staff-powers) ---------------------------------------------------

export const ADJUSTMENT_REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;

/** An adjustment of ADJUSTMENT_APPROVAL_CENTS or more, waiting for (or decided by) a second admin. */
export const adjustmentRequestSchema = z
  .object({
    _id: z.string(),
    user: z.object({ userId: z.string(), username: z.string() }),
    amountCents: z.number().int(),
    reason: z.string(),
    customerNote: z.string().nullable(),
    requestedBy: z.object({ userId: z.string(), username: z.string() }),
    requestedAt: z.string(),
    status: z.enum(ADJUSTMENT_REQUEST_STATUSES),
    decidedBy: z.object({ userId: z.string(), username: z.string() }).nullable(),
    decidedAt: z.string().nullable(),
    decisionNote: z.string().nullable(),
    ledgerEntryId: z.string().nullable(),
  })
  .meta({ id: 'AdjustmentRequest' });
export type AdjustmentRequest = z.infer<typeof adjustmentRequestSchema>;

export const adjustmentRequestListQuerySchema = z.object({
  status: z.enum(ADJUSTMENT_REQUEST_STATUSES).optional(),
  userId: uuidField('Unknown user').optional(),
});
export const adjustmentRequestListResponseSchema = z.object({ requests: z.array(adjustmentRequestSchema) });
export const adjustmentRequestResponseSchema = z.object({ request: adjustmentRequestSchema });
export const rejectAdjustmentBodySchema = z.object({
  note: z.string({ error: 'Say why' }).trim().min(3, 'Say why (at least 3 characters)').max(500, 'Keep it under 500 characters'),
});

// ---- Receipts and export (docs/product.md#receipts) -------------------------------------------------------------------

/** A printable receipt of one ledger entry, with what the entry was for when the ledger knows more. */
export const receiptSchema = z
  .object({
    entry: ledgerEntrySchema,
    account: z.object({ username: z.string(), email: z.string() }),
    /** For a top-up (`payment:<id>` references): the payment behind it. */
    payment: z
      .object({
        id: z.string(),
        status: z.string(),
        payCurrency: z.string(),
        payAmount: z.string().nullable(),
        actuallyPaid: z.string().nullable(),
        priceAmountCents: z.number().int(),
        priceCurrency: z.string(),
        feeCents: z.number().int(),
        txHash: z.string().nullable(),
      })
      .nullable(),
    /** For a charge or its refund (`charge:<id>`, `charge-refund:<id>`): the charge. */
    charge: z
      .object({
        id: z.string(),
        description: z.string(),
        metadata: z.record(z.string(), z.string()),
        status: z.string(),
      })
      .nullable(),
  })
  .meta({ id: 'Receipt' });
export type Receipt = z.infer<typeof receiptSchema>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (v: string) =>
  DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);

/** Both days included, in UTC. */
export const ledgerExportQuerySchema = z
  .object({
    from: z.string({ error: 'Give a start date' }).refine(isRealDate, 'from must be a date (YYYY-MM-DD)'),
    to: z.string({ error: 'Give an end date' }).refine(isRealDate, 'to must be a date (YYYY-MM-DD)'),
  })
  .refine((q) => q.from <= q.to, { message: 'The end date must not be before the start date', path: ['to'] });
export type LedgerExportQuery = z.infer<typeof ledgerExportQuerySchema>;
