import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookDelivery } from '#shared/schemas/webhooks';
import { api } from '#web/lib/api-client';
import { webhookKeys } from './webhook-keys';

/** POST /api/users/webhook-settings/test: queues a test delivery. */
export async function sendTestWebhook(): Promise<WebhookDelivery> {
  return (await api.post<{ delivery: WebhookDelivery }>('/api/users/webhook-settings/test')).delivery;
}

/** The queued test joins the delivery log. */
export function useSendTestWebhook() {
  const client = useQueryClient();
  return useMutation({ mutationFn: sendTestWebhook, onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.deliveries() }) });
}
