import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookSettings, WebhookSettingsBody } from '#shared/schemas/webhooks';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { webhookKeys } from './webhook-keys';

/** PUT /api/users/webhook-settings (docs/product.md#api). The first save answers the signing secret once. */
export const saveWebhookSettings = (settings: Pick<WebhookSettingsBody, 'url' | 'events' | 'enabled'> & StepUpFieldsInput) =>
  api.put<WebhookSettings>('/api/users/webhook-settings', settings);

export function useSaveWebhookSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveWebhookSettings,
    // The form shows the secret once; the cache keeps only the hint.
    onSuccess: ({ secret: _secret, ...settings }) => client.setQueryData<WebhookSettings>(webhookKeys.settings(), settings),
  });
}
