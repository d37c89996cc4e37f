import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

export type SandboxTarget = { kind: 'payment'; id: string } | { kind: 'exchange'; id: string };

/** The sandbox's control endpoint, with Olympus's own id: it moves the payment or exchange as the provider would. */
export function moveInSandbox(target: SandboxTarget, status: string) {
  const path =
    target.kind === 'payment'
      ? `/sandbox/nowpayments/payments/${encodeURIComponent(target.id)}/status`
      : `/sandbox/swap/exchanges/${encodeURIComponent(target.id)}/status`;
  return api.post<unknown>(path, { status });
}

export function useMoveInSandbox(target: SandboxTarget, onMoved: () => void) {
  return useMutation({ mutationFn: (status: string) => moveInSandbox(target, status), onSuccess: onMoved });
}
