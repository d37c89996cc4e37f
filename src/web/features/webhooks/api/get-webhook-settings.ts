import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WebhookSettings } from '#shared/schemas/webhooks';
import { api } from '#web/lib/api-client';
import { webhookKeys } from './webhook-keys';

/** GET /api/users/webhook-settings (ours, docs/product.md#webhooks): URL, events, on/off and the secret's hint. */
export const getWebhookSettings = (signal?: AbortSignal) => api.get<WebhookSettings>('/api/users/webhook-settings', { signal });

/** Read once: the form edits its own copy, and saving or rotating writes the answer back here. */
export const webhookSettingsQueryOptions = () =>
  queryOptions({ queryKey: webhookKeys.settings(), queryFn: ({ signal }) => getWebhookSettings(signal), staleTime: Infinity });

export function useWebhookSettings() {
  return useQuery(webhookSettingsQueryOptions());
}
