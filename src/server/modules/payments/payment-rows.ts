import type { Payment, PaymentStatusResponse } from '#shared/schemas/payments.js';
import type { PaymentRow } from './payments.tables.js';

export function toPaymentDto(row: PaymentRow): Payment {
  return {
    _id: row.id,
    providerPaymentId: row.providerPaymentId,
    status: row.status,
    priceAmount: row.priceAmountCents / 100,
    priceCurrency: row.priceCurrency,
    payCurrency: row.payCurrency,
    payAmount: row.payAmount,
    payAddress: row.payAddress,
    extraId: row.payinExtraId,
    network: row.network,
    feePercent: row.feePercent,
    fee: row.feeCents / 100,
    credits: row.creditsCents / 100,
    creditedAmount: row.creditedCents / 100,
    actuallyPaid: row.actuallyPaid,
    txHash: row.txHash,
    failureReason: row.failureReason,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
  };
}

export function toStatusResponse(row: Pick<PaymentRow, 'status' | 'priceAmountCents' | 'payCurrency'>): PaymentStatusResponse {
  return {
    success: true,
    paymentData: { payment_status: row.status, price_amount: row.priceAmountCents / 100, pay_currency: row.payCurrency },
  };
}

/** What the status poll answers; a payment's price and currency never change, its status does. */
export interface PaymentStatusEntry {
  userId: string;
  status: PaymentRow['status'];
  priceAmountCents: number;
  payCurrency: string;
}
