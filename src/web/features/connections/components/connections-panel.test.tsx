import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#shared/schemas/auth';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { initialSessionState, useSessionStore } from '#web/features/auth';
import { sessionKeys } from '#web/features/auth/user';
import { queryClient } from '#web/lib/query-client';
import { ConnectionsPanel } from './connections-panel';

const USER: User = {
  _id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  emailVerified: true,
  role: 'user',
  subroles: [],
  credits: 0,
  discord: { id: '123456789012345678', username: 'ada_discord', avatar: null, connectedAt: '2026-01-01T00:00:00.000Z' },
  telegram: { id: '42', username: 'ada_tg', firstName: 'Ada', lastName: 'Lovelace', connectedAt: '2026-01-01T00:00:00.000Z' },
  onboardingCompleted: true,
  referralCode: 'ADA1',
  locale: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

const server = setupScriptedApi();
beforeEach(() => {
  server.on('GET', '/api/auth/telegram/config', {
    body: {
      botName: 'olympus_bot',
      authUrl: 'http://localhost/telegram-callback',
      sandboxLoginUrl: 'http://localhost/sandbox/telegram/login',
    },
  });
  useSessionStore.setState({ ...initialSessionState, sessionChecked: true, isAuthenticated: true, userId: USER._id });
  queryClient.setQueryData(sessionKeys.user, USER);
});
afterEach(() => {
  useSessionStore.setState(initialSessionState);
});

const cachedUser = () => queryClient.getQueryData(sessionKeys.user);
const row = (name: 'Discord' | 'Telegram') => screen.getByRole('listitem', { name });

async function disconnect(name: 'Discord' | 'Telegram') {
  fireEvent.click(within(row(name)).getByRole('button', { name: 'Disconnect' }));
  const confirm = within(row(name)).getByRole('button', { name: `Yes, disconnect ${name}` });
  await waitFor(() => expect(document.activeElement).toBe(confirm));
  fireEvent.click(confirm);
}

describe('ConnectionsPanel', () => {
  it('disconnects after confirming, and updates the signed-in user', async () => {
    server.on('DELETE', '/api/users/disconnect/discord', { body: { message: 'Discord account disconnected' } });
    render(<ConnectionsPanel />);
    expect(row('Discord').textContent).toContain('Connected as @ada_discord');
    expect(row('Telegram').textContent).toContain('Connected as @ada_tg (Ada Lovelace)');

    await disconnect('Discord');
    expect(await within(row('Discord')).findByRole('button', { name: 'Connect Discord' })).toBeTruthy();
    expect(row('Discord').textContent).toContain('Not connected');
    expect(cachedUser()).toMatchObject({ discord: null, telegram: USER.telegram });
    expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/api/users/disconnect/discord']);
  });

  it('says "Failed to disconnect … account" and keeps the connection when the server refuses', async () => {
    server.on('DELETE', '/api/users/disconnect/telegram', { status: 500, body: { error: 'Internal error', code: 'INTERNAL' } });
    const failed = vi.spyOn(toast, 'error');
    render(<ConnectionsPanel />);
    await disconnect('Telegram');
    await waitFor(() => expect(failed).toHaveBeenCalledWith('Failed to disconnect Telegram account'));
    expect(row('Telegram').textContent).toContain('Connected as @ada_tg');
    expect(cachedUser()).toMatchObject({ telegram: USER.telegram });
  });

  it('says "Failed to connect Discord account" when no authorize URL can be had', async () => {
    queryClient.setQueryData(sessionKeys.user, { ...USER, discord: null });
    server.on('GET', '/api/auth/discord/authorize-url', { status: 503, body: { error: 'Unavailable', code: 'UNAVAILABLE' } });
    const failed = vi.spyOn(toast, 'error');
    render(<ConnectionsPanel />);
    const connect = within(row('Discord')).getByRole('button', { name: 'Connect Discord' });
    await act(async () => {
      fireEvent.click(connect);
    });
    await waitFor(() => expect(failed).toHaveBeenCalledWith('Failed to connect Discord account'));
    expect(within(row('Discord')).getByRole('button', { name: 'Connect Discord' })).toHaveProperty('disabled', false);
  });
});
