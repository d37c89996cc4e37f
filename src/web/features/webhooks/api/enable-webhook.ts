import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookSettings } from '#shared/schemas/webhooks';
import { api } from '#web/lib/api-client';
import { webhookKeys } from './webhook-keys';

/** POST /api/users/webhook-settings/enable: turns the webhook on again after failures turned it off. */
export const enableWebhook = () => api.post<WebhookSettings>('/api/users/webhook-settings/enable');

export function useEnableWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: enableWebhook,
    onSuccess: (settings) => client.setQueryData<WebhookSettings>(webhookKeys.settings(), settings),
  });
}
