import { MemoryRouter, Route, Routes } from 'react-router';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { toast } from 'react-hot-toast';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ticket, TicketMessage } from '#shared/schemas/tickets';
import { configureApiClient } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';
import { makeToken, startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { useUiStore } from '#web/stores/ui-store';
import { useSessionStore } from '#web/features/auth';
import { SUPPORT_PAGE_SIZE, SupportCenter } from './support-center';
import { Address, address } from '../test/ticket-routes';
import { message as baseMessage, ticket as baseTicket } from '../test/ticket-data';

let server: ScriptedApiServer;
const GUEST_ID = 'guest-abc';

const message = (over: Partial<TicketMessage> = {}): TicketMessage =>
  baseMessage({ authorName: 'Guest', body: 'I sent BTC an hour ago.', ...over });
const ticket = (over: Partial<Ticket> = {}): Ticket =>
  baseTicket({ priority: 'normal', requester: { type: 'guest', name: 'Guest' }, ...over });
const list = (tickets: Ticket[], total = tickets.length, page = 1) => ({ body: { tickets, page, pageSize: SUPPORT_PAGE_SIZE, total } });

function fetchedUrls(spy: { mock: { calls: unknown[][] } }): string[] {
  return spy.mock.calls.map((c) => String(c[0]));
}

beforeAll(async () => {
  // jsdom has no modal dialogs: open and close just toggle the attribute, as a browser would.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
  server = await startScriptedApiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  localStorage.clear();
  useUiStore.getState().reset();
  storage.setToken(makeToken({ isGuest: true, sub: GUEST_ID }));
  storage.setGuestId(GUEST_ID);
  useSessionStore.setState({ isGuest: true, guestId: GUEST_ID });
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  configureApiClient(null);
  useSessionStore.setState({ isGuest: false, guestId: null });
  vi.restoreAllMocks();
});

/** The support page's route as the dashboard mounts it: the open ticket is in the address. */
function SupportRoutes({ at = '/dashboard/support' }: { at?: string }) {
  return (
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route
          path="/dashboard/support/:ticketId?"
          element={
            <>
              <SupportCenter />
              <Address />
            </>
          }
        />
      </Routes>
    </MemoryRouter>
  );
}

/** The polling hook runs at once when a hidden tab becomes visible again: a poll without waiting 5 s. */
function pollNow() {
  act(() => {
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });
}

describe('SupportCenter (docs/product.md#browser-state UI state)', () => {
  it('starts on the ticket list with status badges, from the guest calls with the Guest-ID header', async () => {
    server.on(
      'GET',
      '/api/tickets/guest',
      list([ticket(), ticket({ _id: 't2', number: 1002, subject: 'Login trouble', status: 'pending' })]),
    );
    render(<SupportRoutes />);
    expect(useUiStore.getState().activeView).toBe('ticketList');
    const rows = await screen.findByRole('list', { name: 'Your tickets' });
    // Each row is a link to the ticket's own address.
    const links = within(rows).getAllByRole('link');
    expect(links.map((b) => b.textContent)).toEqual([
      expect.stringContaining('Deposit not showing'),
      expect.stringContaining('Login trouble'),
    ]);
    expect(links[0]!.getAttribute('href')).toMatch(/^\/dashboard\/support\/[\w-]+$/);
    expect(within(rows).getByText('Waiting for you')).toBeTruthy();
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/api/tickets/guest' });
    expect(server.requests[0]!.headers['guest-id']).toBe(GUEST_ID);
  });

  it('uses the user calls for a signed-in user', async () => {
    useSessionStore.setState({ isGuest: false, guestId: null });
    storage.setToken(makeToken());
    localStorage.removeItem('guestId');
    server.on('GET', '/api/tickets', list([]));
    render(<SupportRoutes />);
    await screen.findByText(/No tickets yet/);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/tickets']);
  });

  it('says when the list cannot be loaded and tries again on request', async () => {
    server.on('GET', '/api/tickets/guest', { status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } });
    render(<SupportRoutes />);
    const alert = await screen.findByRole('alert');
    expect(screen.queryByText('Loading your tickets…')).toBeNull();
    server.on('GET', '/api/tickets/guest', list([ticket()]));
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Deposit not showing')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('creates a ticket through the modal: new at the front, modal closed, detail open', async () => {
    server.on('GET', '/api/tickets/guest', list([ticket({ _id: 'old', number: 1000, subject: 'Older ticket' })]));
    const created = ticket({ messages: [message()] });
    server.on('POST', '/api/tickets/guest', { status: 201, body: { ticket: created } });
    server.on('GET', '/api/tickets/guest/t1', { body: { ticket: created } });
    render(<SupportRoutes />);
    await screen.findByText('Older ticket');

    fireEvent.click(screen.getByRole('button', { name: 'New ticket' }));
    expect(useUiStore.getState().isCreatingTicketModal).toBe(true);
    const dialog = screen.getByRole('dialog', { name: 'New support ticket' });
    fireEvent.change(within(dialog).getByLabelText('Subject'), { target: { value: 'Deposit not showing' } });
    fireEvent.change(within(dialog).getByLabelText('Category'), { target: { value: 'payments' } });
    fireEvent.change(within(dialog).getByLabelText('How can we help?'), { target: { value: 'I sent BTC an hour ago.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create ticket' }));

    const thread = await screen.findByRole('list', { name: 'Messages' });
    expect(within(thread).getByText('I sent BTC an hour ago.')).toBeTruthy();
    const ui = useUiStore.getState();
    expect(ui.isCreatingTicketModal).toBe(false);
    expect(ui.activeView).toBe('ticketDetail');
    expect(server.requests.find((r) => r.method === 'POST')!.body).toEqual({
      subject: 'Deposit not showing',
      category: 'payments',
      priority: 'normal',
      message: 'I sent BTC an hour ago.',
    });
  });

  it('shows a staff answer without a reload, merging the ticket by _id', async () => {
    server.on('GET', '/api/tickets/guest', list([ticket()]));
    server.on('GET', '/api/tickets/guest/t1', { body: { ticket: ticket({ messages: [message()] }) } });
    render(<SupportRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    const thread = await screen.findByRole('list', { name: 'Messages' });
    expect(within(thread).getAllByRole('listitem')).toHaveLength(1);

    const answer = message({ _id: 'm2', author: 'staff', authorName: 'support_anna', body: 'We are on it.' });
    server.on('GET', '/api/tickets/guest/t1', {
      body: { ticket: ticket({ status: 'pending', messageCount: 2, messages: [message(), answer] }) },
    });
    pollNow();
    await within(thread).findByText('We are on it.');
    expect(within(thread).getByText('support_anna')).toBeTruthy();
    expect(screen.getByText('Waiting for you')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '← All tickets' }));
    const rows = await screen.findAllByRole('link', { name: /Deposit not showing/ });
    expect(rows).toHaveLength(1);
    expect(within(rows[0]!).getByText('Waiting for you')).toBeTruthy();
  });

  it('shows message text as text, never as HTML', async () => {
    const html = '<img src=x onerror="window.hacked=1"><b>bold</b>';
    server.on('GET', '/api/tickets/guest', list([ticket()]));
    server.on('GET', '/api/tickets/guest/t1', { body: { ticket: ticket({ messages: [message({ body: html })] }) } });
    const { container } = render(<SupportRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    expect(await screen.findByText(html)).toBeTruthy();
    expect(container.querySelector('.ticket-messages img, .ticket-messages b')).toBeNull();
  });

  it('sends a reply and shows it, and refuses replies on a closed ticket', async () => {
    server.on('GET', '/api/tickets/guest', list([ticket()]));
    server.on('GET', '/api/tickets/guest/t1', { body: { ticket: ticket({ messages: [message()] }) } });
    const reply = message({ _id: 'm2', body: 'Any news?' });
    server.on('POST', '/api/tickets/guest/t1/messages', {
      status: 201,
      body: { ticket: ticket({ messageCount: 2, messages: [message(), reply] }) },
    });
    render(<SupportRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    await screen.findByRole('list', { name: 'Messages' });
    fireEvent.change(screen.getByLabelText('Your reply'), { target: { value: 'Any news?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    // The reply shows in the thread (not only in the box it was typed in) once the server has it.
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Messages' })).getByText('Any news?')).toBeTruthy());
    await waitFor(() => expect(server.requests.find((r) => r.method === 'POST')?.body).toEqual({ message: 'Any news?' }));

    server.on('PUT', '/api/tickets/guest/t1', {
      body: { ticket: ticket({ status: 'closed', messageCount: 2, messages: [message(), reply] }) },
    });
    server.on('GET', '/api/tickets/guest/t1', {
      body: { ticket: ticket({ status: 'closed', messageCount: 2, messages: [message(), reply] }) },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close ticket' }));
    await screen.findByText(/This ticket is closed/);
    expect(screen.queryByLabelText('Your reply')).toBeNull();
    await waitFor(() => expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ status: 'closed' }));
  });

  it('shows "Sending…" on the reply button only while a reply is on its way, not while the ticket closes', async () => {
    server.on('GET', '/api/tickets/guest', list([ticket()]));
    server.on('GET', '/api/tickets/guest/t1', { body: { ticket: ticket({ messages: [message()] }) } });
    const reply = message({ _id: 'm2', body: 'Any news?' });
    server.on('POST', '/api/tickets/guest/t1/messages', {
      status: 201,
      delayMs: 300,
      body: { ticket: ticket({ messageCount: 2, messages: [message(), reply] }) },
    });
    render(<SupportRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    await screen.findByRole('list', { name: 'Messages' });
    fireEvent.change(screen.getByLabelText('Your reply'), { target: { value: 'Any news?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    const sending = await screen.findByRole('button', { name: 'Sending…' });
    expect((sending as HTMLButtonElement).disabled).toBe(true);
    expect(await screen.findByRole('button', { name: 'Send reply' })).toHaveProperty('disabled', false);
    expect((screen.getByLabelText('Your reply') as HTMLTextAreaElement).value).toBe('');

    const closed = ticket({ status: 'closed', messageCount: 2, messages: [message(), reply] });
    server.on('PUT', '/api/tickets/guest/t1', { delayMs: 300, body: { ticket: closed } });
    fireEvent.click(screen.getByRole('button', { name: 'Close ticket' }));
    await waitFor(() => expect(server.requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(screen.getByRole('button', { name: 'Send reply' })).toHaveProperty('disabled', false);
    expect(screen.queryByRole('button', { name: 'Sending…' })).toBeNull();
  });

  it('rates a closed ticket once, with a comment, and then shows the rating instead of the form', async () => {
    const closed = ticket({ status: 'closed', messages: [message()] });
    server.on('GET', '/api/tickets/guest', list([closed]));
    server.on('GET', '/api/tickets/guest/t1', { body: { ticket: closed } });
    const rated = { ...closed, rating: { score: 4, comment: 'Helpful', ratedAt: '2026-01-02T10:00:00.000Z' } };
    server.on('POST', '/api/tickets/guest/t1/rating', () => {
      server.on('GET', '/api/tickets/guest/t1', { body: { ticket: rated } });
      return { body: { ticket: rated } };
    });
    render(<SupportRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    const form = await screen.findByRole('form', { name: 'Rate the answer' });
    fireEvent.click(within(form).getByRole('button', { name: 'Send rating' }));
    expect(await within(form).findByText('Choose a score from 1 to 5')).toBeTruthy();
    fireEvent.click(within(form).getByLabelText('4'));
    fireEvent.change(within(form).getByLabelText('Comment (optional)'), { target: { value: 'Helpful' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send rating' }));
    expect(await screen.findByText(/You rated this answer 4 of 5: “Helpful”/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Rate the answer' })).toBeNull();
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.body])).toEqual([
      ['/api/tickets/guest/t1/rating', { score: 4, comment: 'Helpful' }],
    ]);
  });

  it('attaches a file as the raw request body and downloads a file with the session headers', async () => {
    const file = { _id: 'f1', filename: 'shot.png', contentType: 'image/png' as const, size: 2048 };
    const withFile = ticket({ messages: [message(), message({ _id: 'm2', body: 'Attached shot.png', attachments: [file] })] });
    server.on('GET', '/api/tickets/guest', list([ticket()]));
    server.on('GET', '/api/tickets/guest/t1', { body: { ticket: ticket({ messages: [message()] }) } });
    server.on('POST', '/api/tickets/guest/t1/attachments', () => {
      server.on('GET', '/api/tickets/guest/t1', { body: { ticket: withFile } });
      return { status: 201, body: { ticket: withFile } };
    });
    server.on('GET', '/api/tickets/guest/t1/attachments/f1', { body: 'bytes' });
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const createObjectURL = vi.fn(() => 'blob:fake');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    render(<SupportRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    // The scripted server reads bodies as JSON, so the "file" holds JSON text.
    const picked = new File(['"not really a png"'], 'shot.png', { type: 'image/png' });
    fireEvent.change(await screen.findByLabelText(/Attach a file/), { target: { files: [picked] } });
    const download = await screen.findByRole('button', { name: 'Download shot.png' });
    const upload = server.requests.find((r) => r.method === 'POST')!;
    expect(upload.path).toBe('/api/tickets/guest/t1/attachments');
    expect(upload.headers['content-type']).toBe('image/png');
    expect(upload.headers['guest-id']).toBe(GUEST_ID);
    expect(fetchedUrls(fetchSpy).some((u) => u.includes('/attachments?filename=shot.png'))).toBe(true);
    fireEvent.click(download);
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const got = server.requests.find((r) => r.path === '/api/tickets/guest/t1/attachments/f1')!;
    expect(got.headers.authorization).toMatch(/^Bearer /);
  });

  it('refuses a file over 10 MB before sending it', async () => {
    server.on('GET', '/api/tickets/guest', list([ticket()]));
    server.on('GET', '/api/tickets/guest/t1', { body: { ticket: ticket({ messages: [message()] }) } });
    render(<SupportRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    const huge = new File(['x'], 'big.pdf', { type: 'application/pdf' });
    Object.defineProperty(huge, 'size', { value: 10 * 1024 * 1024 + 1 });
    fireEvent.change(await screen.findByLabelText(/Attach a file/), { target: { files: [huge] } });
    expect(await screen.findByText('Files can be at most 10 MB')).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('shows a merged ticket as merged, without rating or reopening', async () => {
    const merged = ticket({
      status: 'closed',
      mergedInto: { _id: 't9', number: 1009 },
      messages: [message({ _id: 'e1', author: 'staff', authorName: 'support', body: 'Merged into #1009.', kind: 'event' })],
    });
    server.on('GET', '/api/tickets/guest', list([merged]));
    server.on('GET', '/api/tickets/guest/t1', { body: { ticket: merged } });
    render(<SupportRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    expect(await screen.findByText('This ticket was merged into #1009.')).toBeTruthy();
    expect(screen.getByText('Merged into #1009.')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Rate the answer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reopen ticket' })).toBeNull();
  });

  it('pages through a long ticket list', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    server.on('GET', '/api/tickets/guest', () =>
      fetchedUrls(fetchSpy).at(-1)!.includes('page=2')
        ? list([ticket({ _id: 'p2', subject: 'On page two' })], SUPPORT_PAGE_SIZE + 1, 2)
        : list([ticket()], SUPPORT_PAGE_SIZE + 1),
    );
    render(<SupportRoutes />);
    await screen.findByText('Deposit not showing');
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('On page two');
    expect(fetchedUrls(fetchSpy).at(-1)).toContain(`page=2&pageSize=${SUPPORT_PAGE_SIZE}`);
    expect(screen.queryByText('Deposit not showing')).toBeNull();
  });

  it('goes back to the list when the open ticket is gone (404)', async () => {
    server.on('GET', '/api/tickets/guest', list([ticket()]));
    render(<SupportRoutes />);
    fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
    await waitFor(() => expect(useUiStore.getState().activeView).toBe('ticketList'));
    await screen.findByRole('list', { name: 'Your tickets' });
  });

  describe('the address of a ticket', () => {
    it('opens a ticket at its own address and goes back to the list at the list address', async () => {
      server.on('GET', '/api/tickets/guest', list([ticket()]));
      server.on('GET', '/api/tickets/guest/t1', { body: { ticket: ticket({ messages: [message()] }) } });
      render(<SupportRoutes />);
      fireEvent.click(await screen.findByRole('link', { name: /Deposit not showing/ }));
      await screen.findByRole('list', { name: 'Messages' });
      expect(address()).toBe('/dashboard/support/t1');
      fireEvent.click(screen.getByRole('button', { name: '← All tickets' }));
      await screen.findByRole('list', { name: 'Your tickets' });
      expect(address()).toBe('/dashboard/support');
      expect(useUiStore.getState().activeView).toBe('ticketList');
    });

    it('opens the ticket straight from its address, as after a reload or from a bookmark', async () => {
      server.on('GET', '/api/tickets/guest', list([]));
      server.on('GET', '/api/tickets/guest/t1', { body: { ticket: ticket({ messages: [message()] }) } });
      render(<SupportRoutes at="/dashboard/support/t1" />);
      const thread = await screen.findByRole('list', { name: 'Messages' });
      expect(within(thread).getByText('I sent BTC an hour ago.')).toBeTruthy();
      expect(useUiStore.getState().activeView).toBe('ticketDetail');
    });

    it('still opens a ticket from a link of the older form, ?ticket=<id>, and moves to its address', async () => {
      const id = '6f1c9a52-3b0e-4d2a-9d6e-0c1b2a3d4e5f';
      server.on('GET', '/api/tickets/guest', list([]));
      server.on('GET', `/api/tickets/guest/${id}`, { body: { ticket: ticket({ _id: id, messages: [message()] }) } });
      render(<SupportRoutes at={`/dashboard/support?ticket=${id}`} />);
      await screen.findByRole('list', { name: 'Messages' });
      expect(address()).toBe(`/dashboard/support/${id}`);
    });

    it('leaves an address that names no ticket for the list', async () => {
      server.on('GET', '/api/tickets/guest', list([ticket()]));
      render(<SupportRoutes at="/dashboard/support/not%20a%20ticket" />);
      await screen.findByRole('list', { name: 'Your tickets' });
      await waitFor(() => expect(address()).toBe('/dashboard/support'));
    });
  });
});
