import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { toast } from 'react-hot-toast';
import { queryClient } from '#web/lib/query-client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebhookDelivery, WebhookSettings } from '#shared/schemas/webhooks';
import { Toaster } from '#web/components/ui/toaster';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { deliveriesRefreshInterval } from '../api/get-webhook-deliveries';
import { PENDING_REFRESH_MS } from './delivery-log';
import { WebhooksPanel } from './webhooks-panel';

const NOT_CONFIGURED: WebhookSettings = {
  configured: false,
  url: null,
  events: [],
  enabled: false,
  secretHint: null,
  legacySecret: false,
  previousSecretExpiresAt: null,
  disabledAt: null,
  failingSince: null,
  updatedAt: null,
  privateTargetsAllowed: false,
};
const SECRET = 'whsec_abcdefghijklmnopqrstuvwxyz0123456DEFG';
const SAVED: WebhookSettings = {
  configured: true,
  url: 'https://hooks.example.com/olympus',
  events: ['payment.finished', 'credits.changed'],
  enabled: true,
  secretHint: 'whsec_••••••••DEFG',
  legacySecret: false,
  previousSecretExpiresAt: null,
  disabledAt: null,
  failingSince: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  privateTargetsAllowed: false,
};
const delivery = (over: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  _id: 'd1',
  event: 'webhook.test',
  status: 'succeeded',
  attempts: 1,
  statusCode: 200,
  lastError: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastAttemptAt: '2026-01-01T00:00:01.000Z',
  deliveredAt: '2026-01-01T00:00:01.000Z',
  nextAttemptAt: null,
  attemptLog: [
    {
      attempt: 1,
      trigger: 'automatic',
      statusCode: 200,
      error: null,
      responseExcerpt: 'ok',
      durationMs: 42,
      attemptedAt: '2026-01-01T00:00:01.000Z',
    },
  ],
  ...over,
});
const deliveries = (list: WebhookDelivery[]) => ({ body: { deliveries: list, page: 1, pageSize: 10, total: list.length } });

const server = setupScriptedApi();
beforeEach(() => {
  server.on('GET', '/api/users/webhook-deliveries', deliveries([]));
});

function renderPanel() {
  render(
    <>
      <Toaster />
      <WebhooksPanel />
    </>,
  );
}

describe('WebhooksPanel', () => {
  it('saves a new webhook, shows the secret once with Copy, and masks it after a reload', async () => {
    server.on('GET', '/api/users/webhook-settings', { body: NOT_CONFIGURED });
    server.on('PUT', '/api/users/webhook-settings', { body: { ...SAVED, secret: SECRET } });
    renderPanel();

    const url = await screen.findByLabelText('Webhook URL');
    expect(screen.getByRole('button', { name: 'Send test' })).toHaveProperty('disabled', true);
    fireEvent.change(url, { target: { value: 'https://hooks.example.com/olympus' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Ticket answered/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Exchange finished/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save webhook' }));

    expect(await screen.findByText('Webhook settings saved')).toBeTruthy();
    const put = server.requests.find((r) => r.method === 'PUT');
    expect(put?.body).toEqual({
      url: 'https://hooks.example.com/olympus',
      events: ['payment.finished', 'credits.changed', 'order.paid', 'order.fulfilled', 'order.refunded'],
      enabled: true,
    });
    expect(screen.getByDisplayValue(SECRET)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    expect(screen.getByText(/will not be shown again/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send test' })).toHaveProperty('disabled', false);

    cleanup();
    server.on('GET', '/api/users/webhook-settings', { body: SAVED });
    renderPanel();
    expect(await screen.findByText('whsec_••••••••DEFG')).toBeTruthy();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copy' })).toBeNull();
  });

  it('says under the URL whether private and local addresses are refused, as this server is configured', async () => {
    server.on('GET', '/api/users/webhook-settings', { body: NOT_CONFIGURED });
    renderPanel();
    expect(await screen.findByText('A public https address. Private and local network addresses are refused.')).toBeTruthy();

    cleanup();
    // A second visit, not a refetch: the app's one query client forgets the first answer, as a reload would.
    queryClient.clear();
    server.on('GET', '/api/users/webhook-settings', { body: { ...NOT_CONFIGURED, privateTargetsAllowed: true } });
    renderPanel();
    expect(
      await screen.findByText('An https or http address. This server also delivers to private and local network addresses.'),
    ).toBeTruthy();
    expect(screen.queryByText(/are refused/)).toBeNull();
  });

  it('shows the catalogue message and the field errors when saving fails, and logs User not found on a 404', async () => {
    server.on('GET', '/api/users/webhook-settings', { body: SAVED });
    server.on('PUT', '/api/users/webhook-settings', {
      status: 400,
      body: { error: 'Invalid request', code: 'VALIDATION_ERROR', details: { fields: { url: 'The host resolves to a loopback address' } } },
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPanel();
    await screen.findByDisplayValue(SAVED.url!);
    fireEvent.click(screen.getByRole('button', { name: 'Save webhook' }));

    expect(await screen.findByText('Failed to update webhook settings')).toBeTruthy();
    const url = screen.getByLabelText('Webhook URL');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The host resolves to a loopback address')).toBeTruthy();
    expect(logged).not.toHaveBeenCalledWith('User not found');

    act(() => toast.remove());
    server.on('PUT', '/api/users/webhook-settings', { status: 404, body: { error: 'User not found', code: 'NOT_FOUND' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save webhook' }));
    expect(await screen.findByText('Failed to update webhook settings')).toBeTruthy();
    expect(logged).toHaveBeenCalledWith('User not found');
  });

  it('checks the form before sending: an enabled webhook needs an event', async () => {
    server.on('GET', '/api/users/webhook-settings', { body: { ...SAVED, events: ['credits.changed'] } });
    renderPanel();
    fireEvent.click(await screen.findByRole('checkbox', { name: /Credits changed/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save webhook' }));
    expect(await screen.findByText('Choose at least one event, or turn the webhook off')).toBeTruthy();
    expect(server.requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('rotates the secret only after confirming, then shows the new one', async () => {
    server.on('GET', '/api/users/webhook-settings', { body: SAVED });
    server.on('POST', '/api/users/webhook-settings/rotate-secret', {
      body: { secret: `${SECRET}x`, secretHint: 'whsec_••••••••EFGx', previousSecretExpiresAt: '2026-01-02T00:00:00.000Z' },
    });
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    const confirm = screen.getByRole('form', { name: 'Confirm rotating the signing secret' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.requests.some((r) => r.path.endsWith('/rotate-secret'))).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, rotate it' }));
    expect(await screen.findByDisplayValue(`${SECRET}x`)).toBeTruthy();
    expect(server.requests.filter((r) => r.path.endsWith('/rotate-secret'))).toHaveLength(1);
    // The overlap is announced: the old secret keeps signing for a day.
    expect(screen.getByText(/previous secret also signs deliveries until/)).toBeTruthy();
    expect(screen.getByText(/Standard Webhooks/, { selector: 'a' })).toBeTruthy();
  });

  it('sends a test and keeps refreshing the log while a delivery is pending', async () => {
    server.on('GET', '/api/users/webhook-settings', { body: SAVED });
    let polls = 0;
    server.on('GET', '/api/users/webhook-deliveries', () => {
      polls += 1;
      if (polls < 2) return deliveries([]);
      if (polls < 3)
        return deliveries([
          delivery({
            status: 'pending',
            attempts: 1,
            statusCode: 500,
            lastError: 'The receiver answered 500',
            nextAttemptAt: '2026-01-01T00:00:06.000Z',
            attemptLog: [
              {
                attempt: 1,
                trigger: 'automatic',
                statusCode: 500,
                error: 'The receiver answered 500',
                responseExcerpt: 'upstream down',
                durationMs: 1500,
                attemptedAt: '2026-01-01T00:00:01.000Z',
              },
            ],
          }),
        ]);
      return deliveries([delivery()]);
    });
    server.on('POST', '/api/users/webhook-settings/test', {
      status: 202,
      body: { delivery: delivery({ status: 'pending', attempts: 0, statusCode: null }) },
    });
    renderPanel();
    expect(await screen.findByText(/No deliveries yet/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('Test webhook queued')).toBeTruthy();
    const table = await screen.findByRole('table');
    expect(within(table).getByText('500 · Retrying')).toBeTruthy();
    expect(within(table).getAllByText('The receiver answered 500').length).toBeGreaterThan(0);
    // The attempt itself: status, duration and the start of the answer; and when the next one is due.
    expect(within(table).getByText(/Automatic · 500 · 1\.5 s/)).toBeTruthy();
    expect(within(table).getByText('upstream down')).toBeTruthy();
    expect(table.querySelector('time[datetime="2026-01-01T00:00:06.000Z"]')).toBeTruthy();

    // No reload by hand: the pending row turns into a delivered one on its own.
    await waitFor(() => expect(within(screen.getByRole('table')).getByText('200 · Delivered')).toBeTruthy(), {
      timeout: PENDING_REFRESH_MS + 3000,
    });
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Event', 'Status', 'Attempts', 'Time', 'Next retry', 'Error', 'Actions']);
  }, 15_000);

  it('replays a delivery from the log and shows the new attempt', async () => {
    server.on('GET', '/api/users/webhook-settings', { body: SAVED });
    const failed = delivery({
      _id: 'd9',
      event: 'credits.changed',
      status: 'failed',
      attempts: 8,
      statusCode: 503,
      lastError: 'The receiver answered 503',
      attemptLog: [
        {
          attempt: 8,
          trigger: 'automatic',
          statusCode: 503,
          error: 'The receiver answered 503',
          responseExcerpt: null,
          durationMs: 12,
          attemptedAt: '2026-01-02T00:00:00.000Z',
        },
      ],
    });
    const replayed = delivery({
      _id: 'd9',
      event: 'credits.changed',
      attempts: 9,
      attemptLog: [
        ...failed.attemptLog,
        {
          attempt: 9,
          trigger: 'manual',
          statusCode: 200,
          error: null,
          responseExcerpt: 'thanks',
          durationMs: 20,
          attemptedAt: '2026-01-03T00:00:00.000Z',
        },
      ],
    });
    let replays = 0;
    server.on('GET', '/api/users/webhook-deliveries', () => deliveries([replays ? replayed : failed]));
    server.on('POST', '/api/users/webhook-deliveries/d9/replay', () => {
      replays += 1;
      return { body: { delivery: replayed } };
    });
    renderPanel();
    const button = await screen.findByRole('button', { name: 'Replay the Credits changed delivery' });
    fireEvent.click(button);
    expect(await screen.findByText('Replayed: delivered (200)')).toBeTruthy();
    expect(replays).toBe(1);
    // The log was refreshed: the manual attempt is listed.
    expect(await screen.findByText(/Replay · 200 · 20 ms/)).toBeTruthy();
    expect(screen.getByText('thanks')).toBeTruthy();
  });

  it('tells the user a failing webhook was turned off and turns it on again', async () => {
    server.on('GET', '/api/users/webhook-settings', {
      body: { ...SAVED, enabled: false, disabledAt: '2026-01-06T00:00:00.000Z', failingSince: '2026-01-01T00:00:00.000Z' },
    });
    server.on('POST', '/api/users/webhook-settings/enable', { body: SAVED });
    renderPanel();
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toMatch(/Webhook turned off\. Every delivery failed for five days/);
    expect((screen.getByRole('switch', { name: 'Send webhooks' }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(within(notice).getByRole('button', { name: 'Re-enable webhook' }));
    expect(await screen.findByText('Webhook turned on again')).toBeTruthy();
    expect(screen.queryByText(/Webhook turned off\./)).toBeNull();
    expect((screen.getByRole('switch', { name: 'Send webhooks' }) as HTMLInputElement).checked).toBe(true);
    expect(server.requests.filter((r) => r.path === '/api/users/webhook-settings/enable')).toHaveLength(1);
  });

  it('explains how to use a secret made before Standard Webhooks', async () => {
    server.on('GET', '/api/users/webhook-settings', { body: { ...SAVED, legacySecret: true } });
    renderPanel();
    expect(await screen.findByText(/made before deliveries followed Standard Webhooks/)).toBeTruthy();
  });

  it('says when the settings cannot be loaded and tries again on request', async () => {
    server.on('GET', '/api/users/webhook-settings', { status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } });
    renderPanel();
    expect(await screen.findByText('Could not load your webhook settings.')).toBeTruthy();
    server.on('GET', '/api/users/webhook-settings', { body: SAVED });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByDisplayValue(SAVED.url!)).toBeTruthy();
  });

  it('says when the delivery log cannot be loaded and tries again on request', async () => {
    server.on('GET', '/api/users/webhook-settings', { body: SAVED });
    server.on('GET', '/api/users/webhook-deliveries', { status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } });
    renderPanel();
    expect(await screen.findByText('Could not load the delivery log.')).toBeTruthy();
    const log = screen.getByRole('group', { name: 'Recent deliveries' });
    server.on('GET', '/api/users/webhook-deliveries', deliveries([]));
    fireEvent.click(within(log).getByRole('button', { name: 'Try again' }));
    expect(await within(log).findByText(/No deliveries yet/)).toBeTruthy();
    expect(screen.queryByText('Could not load the delivery log.')).toBeNull();
  });

  it('polls the log often only while an attempt is near', () => {
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    const page = (list: WebhookDelivery[]) => deliveries(list).body;
    expect(deliveriesRefreshInterval(page([delivery()]), now)).toBe(false);
    expect(deliveriesRefreshInterval(page([delivery({ status: 'pending', attempts: 0 })]), now)).toBe(PENDING_REFRESH_MS);
    expect(
      deliveriesRefreshInterval(page([delivery({ status: 'pending', attempts: 2, nextAttemptAt: '2026-01-01T00:00:05.000Z' })]), now),
    ).toBe(PENDING_REFRESH_MS);
    expect(
      deliveriesRefreshInterval(page([delivery({ status: 'pending', attempts: 4, nextAttemptAt: '2026-01-01T02:00:00.000Z' })]), now),
    ).toBe(60_000);
  });
});
