import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RotateWebhookSecretResponse, WebhookSettings } from '#shared/schemas/webhooks';
import type { StepUpFieldsInput } from '#web/features/two-factor';
import { api } from '#web/lib/api-client';
import { webhookKeys } from './webhook-keys';

/** POST /api/users/webhook-settings/rotate-secret: a new signing secret, answered once; the old one signs too for 24 hours. */
export const rotateWebhookSecret = (stepUp: StepUpFieldsInput = {}) =>
  api.post<RotateWebhookSecretResponse>('/api/users/webhook-settings/rotate-secret', stepUp);

export function useRotateWebhookSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: ({ secretHint, previousSecretExpiresAt }) =>
      client.setQueryData<WebhookSettings>(webhookKeys.settings(), (s) =>
        s ? { ...s, secretHint, previousSecretExpiresAt, legacySecret: false } : s,
      ),
  });
}
