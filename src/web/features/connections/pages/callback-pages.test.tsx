/// <reference types="node" />
import { act, cleanup, screen } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StrictMode } from 'react';
import toast from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { paths } from '#shared/routes';
import { configureApiClient } from '#web/lib/api-client';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import DiscordCallbackPage from './discord-callback-page';
import TelegramCallbackPage from './telegram-callback-page';

const server = setupScriptedApi();

/**
 * The page's timers on a fake clock that also runs on its own (finding and the test's API server need
 * it), which a test moves ahead instead of sleeping through the 3 s before the redirect; real again after.
 */
function onFakeTimers(): void {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
  onTestFinished(() => void vi.useRealTimers());
}

/** Every text the page's level-1 heading showed, however briefly (the success title lasts one render). */
function recordTitles(): { titles: string[]; stop: () => void } {
  const titles: string[] = [];
  const note = (node: Node | null) => {
    const heading = node?.nodeType === Node.TEXT_NODE ? node.parentElement : (node as Element | null);
    if (heading?.closest?.('h1') && node?.textContent) titles.push(node.textContent);
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') note(record.target);
      record.addedNodes.forEach((added) => note(added));
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  return { titles, stop: () => observer.disconnect() };
}

/** A loopback port nothing listens on: the request gets no answer at all. */
async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

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
    server.on('POST', '/api/users/connect/discord', {
      body: { discord: { id: '123456789012345678', username: 'ada', avatar: null, connectedAt: '2026-01-01T00:00:00.000Z' } },
    });
    const success = vi.spyOn(toast, 'success');
    const { titles, stop } = recordTitles();
    const router = renderAt('/discord-callback?code=once-only&state=s1');
    expect(screen.getByRole('heading', { level: 1 })).toHaveProperty('textContent', 'Connecting Discord...');

    expect(await screen.findByText('Settings page')).toBeTruthy();
    stop();
    expect(router.state.location.pathname).toBe('/dashboard/settings');
    expect(success).toHaveBeenCalledWith('Discord account connected successfully!');
    expect(titles).toContain('Redirecting...');
    expect(titles).not.toContain('Connection Failed');
    expect(hits('/api/auth/discord-exchange')).toHaveLength(1);
    expect(hits('/api/auth/discord-exchange')[0]?.body).toEqual({ code: 'once-only', state: 's1' });
    expect(hits('/api/users/connect/discord')[0]?.body).toEqual({ discordId: '123456789012345678', username: 'ada', avatar: null });
  });

  it('shows the server\'s error field as "Error: {message}"', async () => {
    server.on('POST', '/api/auth/discord-exchange', {
      status: 400,
      body: { error: 'Discord did not accept the code', code: 'DISCORD_CODE_REJECTED' },
    });
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
    onFakeTimers();
    const router = renderAt('/telegram-callback?first_name=Ada');
    expect(await screen.findByText('Invalid or missing Telegram data')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(router.state.location.pathname).toBe('/telegram-callback');
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(router.state.location.pathname).toBe(paths.settings);
    expect(await screen.findByText('Settings page')).toBeTruthy();
    expect(server.requests).toHaveLength(0);
  });
  it('says "No authorization code received from Discord" when Discord sent the person back without a code', async () => {
    renderAt('/discord-callback?error=access_denied&error_description=The+resource+owner+denied+the+request&state=s3');
    expect(await screen.findByRole('heading', { level: 1, name: 'Connection Failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('No authorization code received from Discord');
    expect(server.requests).toHaveLength(0);
  });

  it('says "Invalid response from Discord authentication" when the exchange answers without an id, and connects nothing', async () => {
    server.on('POST', '/api/auth/discord-exchange', { body: { username: 'ada', avatar: null } });
    renderAt('/discord-callback?code=c4&state=s4');
    expect(await screen.findByRole('heading', { level: 1, name: 'Connection Failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Invalid response from Discord authentication');
    expect(hits('/api/users/connect/discord')).toHaveLength(0);
  });

  it('shows a refused connect as "Error: {message}", taking error_description when there is no error field', async () => {
    server.on('POST', '/api/auth/discord-exchange', { body: { id: '123456789012345678', username: 'ada', avatar: null } });
    server.on('POST', '/api/users/connect/discord', {
      status: 409,
      body: { error: 'This Discord account is already connected to another user.', code: 'CONNECTION_TAKEN' },
    });
    const success = vi.spyOn(toast, 'success');
    renderAt('/discord-callback?code=c5&state=s5');
    expect(await screen.findByRole('heading', { level: 1, name: 'Connection Failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Error: This Discord account is already connected to another user.');
    expect(success).not.toHaveBeenCalled();
    cleanup();

    server.on('POST', '/api/auth/discord-exchange', { status: 400, body: { error_description: 'Invalid "code" in request.' } });
    renderAt('/discord-callback?code=c6&state=s6');
    expect(await screen.findByRole('heading', { level: 1, name: 'Connection Failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Error: Invalid "code" in request.');
  });

  it('says there was no response when the server cannot be reached, then goes to settings after 3 seconds', async () => {
    onFakeTimers();
    configureApiClient({ baseUrl: await closedPortUrl(), redirectToLogin: () => undefined });
    const router = renderAt('/discord-callback?code=c7&state=s7');
    expect(await screen.findByText('No response from server. Please check your connection.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Connection Failed');
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(router.state.location.pathname).toBe('/discord-callback');
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(router.state.location.pathname).toBe(paths.settings);
    expect(await screen.findByText('Settings page')).toBeTruthy();
  });

  it('connects the verified Telegram account with the documented payload, toasts, and goes to settings', async () => {
    server.on('POST', '/api/auth/verify-telegram', {
      body: { verified: true, id: '42', username: 'ada', firstName: 'Ada', lastName: 'Lovelace' },
    });
    server.on('POST', '/api/users/connect/telegram', {
      body: { telegram: { id: '42', username: 'ada', firstName: 'Ada', lastName: 'Lovelace', connectedAt: '2026-01-01T00:00:00.000Z' } },
    });
    const success = vi.spyOn(toast, 'success');
    const { titles, stop } = recordTitles();
    const router = renderAt(
      '/telegram-callback?id=42&first_name=Ada&last_name=Lovelace&username=ada&photo_url=https%3A%2F%2Ft.me%2Fi%2Fa.jpg&auth_date=100&hash=abc',
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveProperty('textContent', 'Connecting Telegram...');

    expect(await screen.findByText('Settings page')).toBeTruthy();
    stop();
    expect(router.state.location.pathname).toBe('/dashboard/settings');
    expect(success).toHaveBeenCalledWith('Telegram account connected successfully!');
    expect(titles).toContain('Redirecting...');
    expect(hits('/api/auth/verify-telegram')[0]?.body).toEqual({
      id: '42',
      first_name: 'Ada',
      last_name: 'Lovelace',
      username: 'ada',
      photo_url: 'https://t.me/i/a.jpg',
      auth_date: '100',
      hash: 'abc',
    });
    expect(hits('/api/users/connect/telegram')).toHaveLength(1);
    expect(hits('/api/users/connect/telegram')[0]?.body).toEqual({
      telegramId: '42',
      username: 'ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
  });

  it('shows a Telegram server error as "Server error: {message}"', async () => {
    server.on('POST', '/api/auth/verify-telegram', {
      status: 400,
      body: { error: 'Invalid request: Invalid Telegram id', code: 'VALIDATION_ERROR' },
    });
    renderAt('/telegram-callback?id=x&auth_date=1&hash=abc');
    expect(await screen.findByRole('heading', { level: 1, name: 'Connection Failed' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Server error: Invalid request: Invalid Telegram id');
    expect(hits('/api/users/connect/telegram')).toHaveLength(0);
  });
});
