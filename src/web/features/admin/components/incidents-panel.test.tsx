import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Maintenance, StatusResponse } from '#shared/schemas/status';
import { renderWithQuery as render } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { IncidentsPanel } from './incidents-panel';

const HOUR = 3600_000;
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();

const makeWindow = (id: string, title: string, start: number, end: number, state: Maintenance['state']): Maintenance => ({
  _id: id,
  title,
  description: 'A short pause.',
  startsAt: iso(start),
  endsAt: iso(end),
  state,
  createdAt: iso(now),
});

const server = setupScriptedApi();
let maintenance: Maintenance[];
beforeEach(() => {
  maintenance = [
    makeWindow('m1', 'Database upgrade', now + HOUR, now + 2 * HOUR, 'scheduled'),
    makeWindow('m2', 'Node restart', now - HOUR, now + HOUR, 'in_progress'),
    makeWindow('m3', 'Old work', now - 3 * HOUR, now - 2 * HOUR, 'completed'),
  ];
  server.on('GET', '/api/status', () => ({
    body: { overall: 'up', components: [], incidents: [], maintenance, generatedAt: iso(now) } satisfies StatusResponse,
  }));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('IncidentsPanel maintenance windows', () => {
  it('offers Edit and Cancel for upcoming and running windows only', async () => {
    render(<IncidentsPanel />);
    const list = await screen.findByRole('list', { name: 'Upcoming maintenance' });
    expect(within(list).getByRole('button', { name: 'Edit Database upgrade' })).toBeTruthy();
    expect(within(list).getByRole('button', { name: 'Cancel Node restart' })).toBeTruthy();
    expect(list.textContent).not.toContain('Old work');
  });

  it('cancels a window only after confirmation, and the list follows the server', async () => {
    server.on('POST', '/api/status/maintenance/m1/cancel', () => {
      maintenance = maintenance.filter((m) => m._id !== 'm1');
      return { status: 204 };
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    render(<IncidentsPanel />);
    const button = await screen.findByRole('button', { name: 'Cancel Database upgrade' });

    fireEvent.click(button);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm.mock.calls[0]![0]).toContain('Database upgrade');
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.click(button);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel Database upgrade' })).toBeNull());
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/status/maintenance/m1/cancel']);
    expect(screen.getByRole('button', { name: 'Cancel Node restart' })).toBeTruthy();
  });

  it('edits a window in place and sends every field, showing the server refusal on the form', async () => {
    let answer: { status: number; body: unknown } = {
      status: 409,
      body: { error: 'This maintenance is over and can no longer be changed.', code: 'CONFLICT' },
    };
    server.on('PUT', '/api/status/maintenance/m1', () => answer);
    render(<IncidentsPanel />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Database upgrade' }));
    const form = screen.getByRole('form', { name: 'Edit maintenance Database upgrade' });
    const title = within(form).getByLabelText('Title') as HTMLInputElement;
    expect(title.value).toBe('Database upgrade');
    fireEvent.change(title, { target: { value: 'Database upgrade, part 2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('This maintenance is over and can no longer be changed.')).toBeTruthy();

    answer = { status: 200, body: { maintenance: { ...maintenance[0], title: 'Database upgrade, part 2' } } };
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit maintenance Database upgrade' })).toBeNull());
    const sent = server.requests.filter((r) => r.method === 'PUT').at(-1)!.body as Record<string, string>;
    expect(sent).toEqual({
      title: 'Database upgrade, part 2',
      description: 'A short pause.',
      startsAt: iso(now + HOUR).replace(/\d\d\.\d{3}Z$/, '00.000Z'),
      endsAt: iso(now + 2 * HOUR).replace(/\d\d\.\d{3}Z$/, '00.000Z'),
    });
  });
});
