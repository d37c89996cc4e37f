import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import toast, { Toaster } from 'react-hot-toast';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogueItem, Order } from '#shared/schemas/catalogue';
import { useSessionStore } from '#web/features/auth';
import { sessionKeys } from '#web/features/auth/credits';
import { queryClient } from '#web/lib/query-client';
import { configureApiClient } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';
import { renderWithQuery as render } from '#web/test/render';
import { makeToken, startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { GuestCatalogue } from './guest-catalogue';
import { CatalogueSection } from './catalogue-section';

let server: ScriptedApiServer;
const USER_ID = 'user-1';

const item = (over: Partial<CatalogueItem> = {}): CatalogueItem => ({
  _id: 'item-1',
  name: 'Priority support',
  description: 'An answer within the hour.',
  priceCents: 300,
  stock: null,
  active: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const order = (over: Partial<Order> = {}): Order => ({
  _id: 'order-1',
  itemId: 'item-1',
  itemName: 'Priority support',
  priceCents: 300,
  status: 'paid',
  ledgerEntryId: 'entry-1',
  refundLedgerEntryId: null,
  createdAt: '2026-01-02T00:00:00.000Z',
  fulfilledAt: null,
  refundedAt: null,
  ...over,
});

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
  storage.setToken(makeToken({ sub: USER_ID }));
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
  useSessionStore.setState({ isAuthenticated: true, isGuest: false, userId: USER_ID });
  // The balance the server keeps; sign-in put the same into the query cache.
  serverCredits = 5;
  queryClient.setQueryData(sessionKeys.credits(USER_ID), 5);
  server.on('GET', `/api/users/${USER_ID}/credits`, () => ({ body: { credits: serverCredits } }));
  server.on('GET', '/api/catalogue', {
    body: {
      items: [
        item(),
        item({ _id: 'item-2', name: 'Big bundle', priceCents: 1000, stock: 4 }),
        item({ _id: 'item-3', name: 'Gone', stock: 0 }),
      ],
    },
  });
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  configureApiClient(null);
  useSessionStore.setState({ isAuthenticated: false, userId: null });
});

let serverCredits = 5;
const cachedCredits = () => queryClient.getQueryData(sessionKeys.credits(USER_ID));

function renderCatalogue(element = <CatalogueSection userId={USER_ID} />) {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            {element}
            <Toaster />
          </>
        ),
      },
    ],
    { initialEntries: ['/dashboard'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const cardOf = async (name: string) => (await screen.findByRole('heading', { name })).closest('li') as HTMLElement;

describe('CatalogueSection', () => {
  it('buys after the confirmation with an Idempotency-Key, shows the new balance and the order with its receipt', async () => {
    let orders: Order[] = [];
    server.on('GET', '/api/orders', () => ({ body: { orders, page: 1, pageSize: 10, total: orders.length } }));
    server.on('POST', '/api/orders', () => {
      orders = [order()];
      serverCredits = 2;
      return { status: 201, body: { order: orders[0], balanceCents: 200 } };
    });
    renderCatalogue();
    expect(await screen.findByText('No orders yet.')).toBeTruthy();
    const sold = await cardOf('Gone');
    expect(within(sold).getByRole('button', { name: /Sold out/ })).toHaveProperty('disabled', true);
    expect(within(sold).getByText('Sold out', { selector: 'span' })).toBeTruthy();
    expect(within(await cardOf('Big bundle')).getByText('4 left')).toBeTruthy();

    fireEvent.click(within(await cardOf('Priority support')).getByRole('button', { name: 'Buy Priority support' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy Priority support?' });
    expect(within(dialog).getByTestId('buy-price').textContent).toBe('3.00 credits');
    expect(within(dialog).getByTestId('buy-balance').textContent).toBe('5.00 credits');
    expect(within(dialog).getByTestId('buy-balance-after').textContent).toBe('2.00 credits');
    expect(screen.queryByTestId('buy-shortfall')).toBeNull();
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm: pay 3.00 credits' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const posts = server.requests.filter((r) => r.method === 'POST' && r.path === '/api/orders');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ itemId: 'item-1', expectedPriceCents: 300 });
    expect(posts[0]!.headers['idempotency-key']).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(cachedCredits()).toBe(2);
    // Said twice: a toast, and the section's status line with the order's receipt.
    const sentence = 'Bought Priority support for 3.00 credits. Balance: 2.00 credits.';
    expect(await screen.findByText(sentence, { selector: '[role="status"] div, [role="status"]' })).toBeTruthy();
    const bought = screen.getByTestId('catalogue-bought');
    expect(bought.textContent).toBe(`${sentence} View the receipt`);
    expect(bought.closest('[aria-live="polite"]')).toBeTruthy();
    expect(within(bought).getByRole('link', { name: 'View the receipt' }).getAttribute('href')).toBe('/dashboard/receipts/entry-1');

    const row = await screen.findByTestId('order-row');
    expect(within(row).getByTestId('order-status').textContent).toBe('Paid');
    expect(within(row).getByRole('link', { name: 'Receipt for Priority support' }).getAttribute('href')).toBe(
      '/dashboard/receipts/entry-1',
    );
  });

  it('shows the shortfall and a Top up link carrying it instead of letting a short balance buy', async () => {
    server.on('GET', '/api/orders', { body: { orders: [], page: 1, pageSize: 10, total: 0 } });
    renderCatalogue();
    fireEvent.click(within(await cardOf('Big bundle')).getByRole('button', { name: 'Buy Big bundle' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('buy-shortfall').textContent).toContain('you need 5.00 more');
    expect(within(dialog).getByRole('link', { name: 'Top up 5.00 credits' }).getAttribute('href')).toBe(
      '/dashboard/wallet?topup=5.00#top-up',
    );
    expect(within(dialog).getByRole('button', { name: /Confirm/ })).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server’s shortfall when the balance changed meanwhile, and retries with the same key', async () => {
    server.on('GET', '/api/orders', { body: { orders: [], page: 1, pageSize: 10, total: 0 } });
    let calls = 0;
    server.on('POST', '/api/orders', () => {
      calls += 1;
      return calls === 1
        ? { status: 503, body: { error: 'Service temporarily unavailable', code: 'UNAVAILABLE' } }
        : {
            status: 422,
            body: {
              error: 'Not enough credits: 1.00 more needed',
              code: 'INSUFFICIENT_CREDITS',
              details: { shortfallCents: 100, balanceCents: 200, priceCents: 300 },
            },
          };
    });
    renderCatalogue();
    fireEvent.click(within(await cardOf('Priority support')).getByRole('button', { name: 'Buy Priority support' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /Confirm/ }));
    expect(await within(dialog).findByText('Service temporarily unavailable')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /Confirm/ }));
    expect((await within(dialog).findByTestId('buy-shortfall')).textContent).toContain('you need 1.00 more');
    expect(within(dialog).getByRole('link', { name: 'Top up 1.00 credits' }).getAttribute('href')).toBe(
      '/dashboard/wallet?topup=1.00#top-up',
    );
    const keys = server.requests.filter((r) => r.method === 'POST').map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('asks again at the new price when the price changed, and sends only the price it shows', async () => {
    server.on('GET', '/api/orders', { body: { orders: [], page: 1, pageSize: 10, total: 0 } });
    server.on('POST', '/api/orders', (req) => {
      const body = req.body as { expectedPriceCents: number };
      if (body.expectedPriceCents === 400) serverCredits = 1;
      return body.expectedPriceCents === 400
        ? { status: 201, body: { order: order({ priceCents: 400 }), balanceCents: 100 } }
        : {
            status: 409,
            body: {
              error: 'The price changed to 4.00 credits. Nothing was charged; confirm the new price to buy.',
              code: 'PRICE_CHANGED',
              details: { priceCents: 400, expectedPriceCents: body.expectedPriceCents },
            },
          };
    });
    renderCatalogue();
    fireEvent.click(within(await cardOf('Priority support')).getByRole('button', { name: 'Buy Priority support' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm: pay 3.00 credits' }));

    expect((await within(dialog).findByTestId('buy-price-changed')).textContent).toBe(
      'The price changed to 4.00 credits. Buy at the new price?',
    );
    expect(within(dialog).getByTestId('buy-price').textContent).toBe('4.00 credits');
    expect(within(dialog).getByTestId('buy-balance-after').textContent).toBe('1.00 credits');
    expect(cachedCredits()).toBe(5);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm: pay 4.00 credits' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const posts = server.requests.filter((r) => r.method === 'POST' && r.path === '/api/orders');
    expect(posts.map((r) => r.body)).toEqual([
      { itemId: 'item-1', expectedPriceCents: 300 },
      { itemId: 'item-1', expectedPriceCents: 400 },
    ]);
    // The refused attempt bought nothing, so the same key buys at the new price (and a lost answer is still answered once).
    expect(posts[0]!.headers['idempotency-key']).toBe(posts[1]!.headers['idempotency-key']);
    expect(cachedCredits()).toBe(1);
  });

  it('links a refunded order to both receipts', async () => {
    server.on('GET', '/api/orders', {
      body: { orders: [order({ status: 'refunded', refundLedgerEntryId: 'entry-2' })], page: 1, pageSize: 10, total: 1 },
    });
    renderCatalogue();
    const row = await screen.findByTestId('order-row');
    expect(within(row).getByTestId('order-status').textContent).toBe('Refunded');
    expect(within(row).getByRole('link', { name: 'Refund receipt for Priority support' }).getAttribute('href')).toBe(
      '/dashboard/receipts/entry-2',
    );
  });
});

describe('GuestCatalogue', () => {
  it('shows the items with prices and asks the guest to sign up to buy', async () => {
    renderCatalogue(<GuestCatalogue />);
    const card = await cardOf('Priority support');
    expect(within(card).getByText('3.00 credits')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Sign up to buy Priority support' }).getAttribute('href')).toBe('/register');
    // The guest dashboard's own "Create an account" stays the only one on the page.
    expect(screen.queryByRole('link', { name: 'Create an account' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Buy/ })).toBeNull();
  });
});
