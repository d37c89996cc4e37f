import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaymentStatusResponse } from '#shared/schemas/payments';
import { api } from '#web/lib/api-client';
import { PAYMENT_MESSAGES, paymentCallError } from './payment-call-error';
import { paymentKeys } from './payment-keys';

/** POST /api/payments/check: record a transaction hash and check the payment now, or Failed to check payment. */
export async function checkPayment(orderId: string, txHash: string): Promise<PaymentStatusResponse['paymentData']> {
  try {
    const res = await api.post<PaymentStatusResponse>('/api/payments/check', { orderId, txHash });
    return res.paymentData;
  } catch (err) {
    throw paymentCallError(PAYMENT_MESSAGES.check, err);
  }
}

/**
 * The answer is the payment's current status, so it becomes the status query's data at once (the
 * page moves on if the payment is finished); the payment's details may have changed too.
 */
export function useCheckPayment(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (txHash: string) => checkPayment(id, txHash),
    onSuccess: (data) => {
      client.setQueryData(paymentKeys.status(id), data);
      return client.invalidateQueries({ queryKey: paymentKeys.detail(id) });
    },
  });
}
