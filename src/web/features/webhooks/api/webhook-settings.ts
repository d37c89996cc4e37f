import type {
  RotateWebhookSecretResponse,
  WebhookDeliveriesResponse,
  WebhookDelivery,
  WebhookSettings,
  WebhookSettingsBody,
} from '../../../../shared/schemas/webhooks';
import { api } from '../../../lib/api-client';

/** Spec section 7 names the PUT; the read, rotate, test and log calls are ours (design.md section 10). */
export const getWebhookSettings = () => api.get<WebhookSettings>('/api/users/webhook-settings');

export const saveWebhookSettings = (settings: WebhookSettingsBody) => api.put<WebhookSettings>('/api/users/webhook-settings', settings);

export const rotateWebhookSecret = () => api.post<RotateWebhookSecretResponse>('/api/users/webhook-settings/rotate-secret');

export async function sendTestWebhook(): Promise<WebhookDelivery> {
  return (await api.post<{ delivery: WebhookDelivery }>('/api/users/webhook-settings/test')).delivery;
}

export const getWebhookDeliveries = (page: number, pageSize: number) =>
  api.get<WebhookDeliveriesResponse>(`/api/users/webhook-deliveries?page=${page}&pageSize=${pageSize}`);
