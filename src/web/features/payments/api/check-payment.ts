import { useMutation, useQueryClient } from '@tanstack/react-query';
import { checkPayment } from './payments-api';
import { paymentKeys } from './payment-keys';

/**
 * POST /api/payments/check: record a transaction hash and check the payment now. Its answer is the
 * payment's current status, so it becomes the status query's data at once (the page moves on if the
 * payment is finished); the payment's details may have changed too.
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
