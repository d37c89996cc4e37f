import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createDeposit } from './payments-api';
import { paymentKeys } from './payment-keys';

/** POST /api/payments/deposit: a new payment, which joins my payment history. */
export function useCreateDeposit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ crypto, amount }: { crypto: string; amount: number }) => createDeposit(crypto, amount),
    onSuccess: () => client.invalidateQueries({ queryKey: paymentKeys.all }),
  });
}
