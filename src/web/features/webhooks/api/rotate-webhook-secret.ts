import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RotateWebhookSecretResponse, WebhookSettings } from '#shared/schemas/webhooks';
import { api } from '#web/lib/api-client';
import { webhookKeys } from './webhook-keys';

/** POST /api/users/webhook-settings/rotate-secret: a new signing secret, answered once. */
export const rotateWebhookSecret = () => api.post<RotateWebhookSecretResponse>('/api/users/webhook-settings/rotate-secret');

export function useRotateWebhookSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: ({ secretHint }) => client.setQueryData<WebhookSettings>(webhookKeys.settings(), (s) => (s ? { ...s, secretHint } : s)),
  });
}
