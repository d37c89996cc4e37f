import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DepositResponse, Payment } from '#shared/schemas/payments';
import { api } from '#web/lib/api-client';
import { PAYMENT_MESSAGES, paymentCallError } from './payment-call-error';
import { paymentKeys } from './payment-keys';

/** POST /api/payments/deposit: a new payment, or Failed to create deposit with the server's reason and field errors. */
export async function createDeposit(crypto: string, amount: number): Promise<Payment> {
  try {
    const res = await api.post<DepositResponse>('/api/payments/deposit', { crypto, amount });
    return res.payment;
  } catch (err) {
    throw paymentCallError(PAYMENT_MESSAGES.deposit, err);
  }
}

/** The new payment joins my payment history. */
export function useCreateDeposit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ crypto, amount }: { crypto: string; amount: number }) => createDeposit(crypto, amount),
    onSuccess: () => client.invalidateQueries({ queryKey: paymentKeys.all }),
  });
}
