import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../shared/routes';
import { configureApiClient } from '../../../lib/api-client';
import { storage } from '../../../lib/storage';
import { makeToken, startScriptedApiServer, type ScriptedApiServer } from '../../../lib/testing/scripted-api-server';
import DiscordCallbackPage from './discord-callback-page';
import TelegramCallbackPage from './telegram-callback-page';

let server: ScriptedApiServer;

beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  localStorage.clear();
  storage.setToken(makeToken());
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
});
afterEach(() => {
  // Unmounting also clears a pending 3 s redirect, so nothing runs after the test.
  cleanup();
  configureApiClient(null);
});

/** The page as the app mounts it: StrictMode (effects run twice in development) and a router. */
function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: paths.discordCallback, Component: DiscordCallbackPage },
      { path: paths.telegramCallback, Component: TelegramCallbackPage },
      { path: paths.settings, element: <p>Settings page</p> },
    ],
    { initialEntries: [url] },
  );
  render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  return router;
}

const hits = (path: string) => server.requests.filter((r) => r.path === path);

describe('connection callbacks', () => {
  it('sends a single-use Discord code once under StrictMode, connects, and goes to settings', async () => {
    server.on('POST', '/api/auth/discord-exchange', { body: { id: '123456789012345678', username: 'ada', avatar: null } });
    server.on('POST', '/api/users/connect/discord', { body: { discord: { id: '123456789012345678', username: 'ada', avatar: null, connectedAt: '2026-01-01T00:00:00.000Z' } } });
    const router = renderAt('/discord-callback?code=once-only&state=s1');
    expect(screen.getByRole('heading', { level: 1 })).toHaveProperty('textContent', 'Connecting Discord...');

    expect(await screen.findByText('Settings page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/settings');
    expect(hits('/api/auth/discord-exchange')).toHaveLength(1);
    expect(hits('/api/auth/discord-exchange')[0]?.body).toEqual({ code: 'once-only', state: 's1' });
    expect(hits('/api/users/connect/discord')[0]?.body).toEqual({ discordId: '123456789012345678', username: 'ada', avatar: null });
  });

  it('shows the server\'s error field as "Error: {message}"', async () => {
    server.on('POST', '/api/auth/discord-exchange', { status: 400, body: { error: 'Discord did not accept the code', code: 'DISCORD_CODE_REJECTED' } });
    renderAt('/discord-callback?code=bad&state=s2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Connection Failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Error: Discord did not accept the code');
  });

  it('sends only the Telegram fields that arrived, once, and refuses an unverified answer', async () => {
    server.on('POST', '/api/auth/verify-telegram', { body: { verified: false, reason: 'hash_mismatch' } });
    renderAt('/telegram-callback?id=42&first_name=Ada&auth_date=100&hash=abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Connection Failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Telegram authentication failed to verify');
    expect(hits('/api/auth/verify-telegram')).toHaveLength(1);
    expect(hits('/api/auth/verify-telegram')[0]?.body).toEqual({ id: '42', first_name: 'Ada', auth_date: '100', hash: 'abc' });
    expect(hits('/api/users/connect/telegram')).toHaveLength(0);
  });

  it('goes back to settings 3 seconds after an error', async () => {
    const router = renderAt('/telegram-callback?first_name=Ada');
    expect(await screen.findByText('Invalid or missing Telegram data')).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 2500)));
    expect(router.state.location.pathname).toBe('/telegram-callback');
    expect(await screen.findByText('Settings page', {}, { timeout: 2000 })).toBeTruthy();
    expect(server.requests).toHaveLength(0);
  });
});
