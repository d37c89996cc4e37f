import { z } from 'zod';
import { pageShape, paginationQuerySchema, tickerSchema, uuidField } from './common.js';

/**
 * Payment statuses: the provider's (NOWPayments) plus our own `pending` (before the provider knows the
 * payment) and `completed` (finished and credited) - docs/product.md#payments.
 */
export const PAYMENT_STATUSES = [
  'pending',
  'waiting',
  'confirming',
  'confirmed',
  'sending',
  'partially_paid',
  'finished',
  'completed',
  'failed',
  'refunded',
  'expired',
] as const;
export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** Statuses after which nothing more happens to a payment. */
export const FINAL_PAYMENT_STATUSES: readonly PaymentStatus[] = ['completed', 'partially_paid', 'failed', 'refunded', 'expired'];

/** A USD amount (a JSON number): positive, at most two decimals. */
export const usdAmountSchema = z
  .number({ error: 'Enter an amount in USD' })
  .refine((v) => Number.isFinite(v) && v > 0, 'Enter an amount greater than zero')
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'Use at most two decimals (cents)');

/** Ticker as NOWPayments spells it (the shared ticker rule). */
export const cryptoCodeSchema = tickerSchema;

export const cryptoOptionSchema = z.object({
  code: z.string(),
  name: z.string(),
  network: z.string().nullable(),
  /** Payments in this coin need a destination tag / memo. */
  hasExtraId: z.boolean(),
  logoUrl: z.string().nullable(),
});
export type CryptoOption = z.infer<typeof cryptoOptionSchema>;

export const depositLimitsSchema = z.object({ minAmount: z.number(), maxAmount: z.number() });
export type DepositLimits = z.infer<typeof depositLimitsSchema>;

export const cryptosResponseSchema = z.object({
  cryptos: z.array(cryptoOptionSchema),
  limits: depositLimitsSchema,
});
export type CryptosResponse = z.infer<typeof cryptosResponseSchema>;

export const depositBodySchema = z.object({ crypto: cryptoCodeSchema, amount: usdAmountSchema });
export type DepositBody = z.infer<typeof depositBodySchema>;

/** A payment as the API shows it. Money is USD with two decimals; crypto amounts are decimal strings. */
export const paymentSchema = z
  .object({
    _id: z.string(),
    providerPaymentId: z.string().nullable(),
    status: paymentStatusSchema,
    priceAmount: z.number(),
    priceCurrency: z.string(),
    payCurrency: z.string(),
    payAmount: z.string().nullable(),
    payAddress: z.string().nullable(),
    extraId: z.string().nullable(),
    network: z.string().nullable(),
    feePercent: z.number(),
    fee: z.number(),
    credits: z.number(),
    creditedAmount: z.number(),
    actuallyPaid: z.string().nullable(),
    txHash: z.string().nullable(),
    failureReason: z.string().nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof paymentSchema>;

export const depositResponseSchema = z.object({ success: z.literal(true), payment: paymentSchema });
export type DepositResponse = z.infer<typeof depositResponseSchema>;

/** docs/product.md#browser-state: payment status response. */
export const paymentStatusResponseSchema = z.object({
  success: z.boolean(),
  paymentData: z.object({
    payment_status: paymentStatusSchema,
    price_amount: z.number(),
    pay_currency: z.string(),
  }),
});
export type PaymentStatusResponse = z.infer<typeof paymentStatusResponseSchema>;

export const paymentCheckBodySchema = z.object({
  orderId: uuidField('Unknown payment'),
  txHash: z
    .string({ error: 'Enter the transaction hash' })
    .trim()
    .min(8, 'Enter the transaction hash')
    .max(200, 'That transaction hash is too long')
    .regex(/^[A-Za-z0-9:_-]+$/, 'A transaction hash has only letters and digits'),
});
export type PaymentCheckBody = z.infer<typeof paymentCheckBodySchema>;

export const paymentCheckResponseSchema = paymentStatusResponseSchema.extend({ payment: paymentSchema });

export const myPaymentsQuerySchema = paginationQuerySchema.extend({
  status: paymentStatusSchema.optional(),
  currency: cryptoCodeSchema.optional(),
});
export type MyPaymentsQuery = z.infer<typeof myPaymentsQuerySchema>;

export const myPaymentsResponseSchema = z.object({ payments: z.array(paymentSchema), ...pageShape });
export type MyPaymentsResponse = z.infer<typeof myPaymentsResponseSchema>;

/** GET /api/payments/{id}: the payment and the owner's balance now (for /payment/complete). */
export const paymentDetailResponseSchema = z.object({
  payment: paymentSchema,
  balance: z.number(),
  /**
   * The ledger entry that credited this payment (its receipt: /dashboard/receipts/<id>); the newest one
   * when it was credited in parts; null while nothing is credited (decision 0239).
   */
  receiptEntryId: z.string().nullable(),
});
export type PaymentDetailResponse = z.infer<typeof paymentDetailResponseSchema>;
