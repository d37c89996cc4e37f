import { fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '#shared/schemas/auth';
import { renderWithQuery as render } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { SessionsList } from './sessions-list';

const server = setupScriptedApi();

const session = (over: Partial<SessionInfo> = {}): SessionInfo => ({
  _id: 's1',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastSeenAt: '2026-01-02T00:00:00.000Z',
  expiresAt: '2026-02-01T00:00:00.000Z',
  userAgent: null,
  ip: '203.0.113.7',
  current: true,
  ...over,
});

const renderList = () =>
  render(
    <MemoryRouter>
      <SessionsList />
    </MemoryRouter>,
  );

describe('SessionsList', () => {
  it('says when the sessions cannot be loaded and tries again on request', async () => {
    server.on('GET', '/api/auth/sessions', { status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } });
    renderList();
    const alert = await screen.findByRole('alert');
    expect(screen.queryByText('Loading sessions…')).toBeNull();
    server.on('GET', '/api/auth/sessions', { body: { sessions: [session()] } });
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    const list = await screen.findByRole('list', { name: 'Active sessions' });
    expect(within(list).getByText('This device')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('marks the section busy while the first answer is on its way', async () => {
    server.on('GET', '/api/auth/sessions', { body: { sessions: [] } });
    renderList();
    expect(screen.getByText('Loading sessions…')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Active sessions' }).getAttribute('aria-busy')).toBe('true');
    expect(await screen.findByText('No active sessions.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Active sessions' }).getAttribute('aria-busy')).toBeNull();
  });
});
