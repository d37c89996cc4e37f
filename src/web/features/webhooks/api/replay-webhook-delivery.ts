import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReplayWebhookDeliveryResponse, WebhookDelivery } from '#shared/schemas/webhooks';
import { api } from '#web/lib/api-client';
import { webhookKeys } from './webhook-keys';

/** POST /api/users/webhook-deliveries/:id/replay: one more attempt of the same message, now. */
export async function replayWebhookDelivery(id: string): Promise<WebhookDelivery> {
  return (await api.post<ReplayWebhookDeliveryResponse>(`/api/users/webhook-deliveries/${encodeURIComponent(id)}/replay`)).delivery;
}

/** The replayed attempt joins the delivery log; a replay can change the webhook's failure state too. */
export function useReplayWebhookDelivery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: replayWebhookDelivery,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: webhookKeys.deliveries() }),
        client.invalidateQueries({ queryKey: webhookKeys.settings() }),
      ]),
  });
}
