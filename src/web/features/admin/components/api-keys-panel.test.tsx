import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureApiClient } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';
import { renderWithQuery as render } from '#web/test/render';
import { makeToken, startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { ApiKeysPanel } from './api-keys-panel';

let server: ScriptedApiServer;
const KEY = 'olk_live_AbCdEfGh0123456789abcdefghijklmnopqrstuvw';
const listed = (revokedAt: string | null = null) => ({
  _id: 'k1',
  name: 'billing',
  prefix: 'olk_live_AbCdEfGh',
  rateLimitPerMinute: 120,
  createdAt: '2026-11-25T10:00:00.000Z',
  lastUsedAt: null,
  revokedAt,
});

beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  storage.setToken(makeToken());
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
});
afterEach(() => {
  cleanup();
  configureApiClient(null);
});

describe('ApiKeysPanel', () => {
  it('shows a new key once, then only its prefix in the list', async () => {
    let keys: unknown[] = [];
    server.on('GET', '/api/admin/api-keys', () => ({ body: { apiKeys: keys } }));
    server.on('POST', '/api/admin/api-keys', () => {
      keys = [listed()];
      return { status: 201, body: { apiKey: listed(), key: KEY } };
    });
    render(<ApiKeysPanel />);
    expect(await screen.findByText('No API keys yet.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: 'billing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByTestId('new-api-key-value')).textContent).toBe(KEY);
    expect(server.requests.find((r) => r.method === 'POST')!.body).toEqual({ name: 'billing' });
    const table = await screen.findByRole('table', { name: 'API keys' });
    await waitFor(() => expect(table.textContent).toContain('olk_live_AbCdEfGh…'));
    expect(table.textContent).not.toContain(KEY);

    fireEvent.click(screen.getByRole('button', { name: 'I have saved it' }));
    expect(screen.queryByTestId('new-api-key-value')).toBeNull();
    expect(document.body.textContent).not.toContain(KEY);
  });

  it('revokes a key after confirmation', async () => {
    let revoked = false;
    server.on('GET', '/api/admin/api-keys', () => ({ body: { apiKeys: [listed(revoked ? '2026-11-25T11:00:00.000Z' : null)] } }));
    server.on('POST', '/api/admin/api-keys/k1/revoke', () => {
      revoked = true;
      return { body: { apiKey: listed('2026-11-25T11:00:00.000Z') } };
    });
    const confirm = window.confirm;
    window.confirm = () => true;
    try {
      render(<ApiKeysPanel />);
      fireEvent.click(await screen.findByRole('button', { name: /Revoke/ }));
      // Confirmed in place (the second factor goes in the same form when two-factor is on).
      const form = screen.getByRole('form', { name: /Revoke/ });
      fireEvent.click(within(form).getByRole('button', { name: 'Revoke key' }));
      await waitFor(() => expect(screen.getByRole('table', { name: 'API keys' }).textContent).toContain('Revoked'));
      expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
    } finally {
      window.confirm = confirm;
    }
  });
});
