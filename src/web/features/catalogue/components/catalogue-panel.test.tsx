import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AdminOrder, CatalogueItem } from '#shared/schemas/catalogue';
import { configureApiClient } from '#web/lib/api-client';
import { storage } from '#web/lib/storage';
import { renderWithQuery as render } from '#web/test/render';
import { makeToken, startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { CataloguePanel } from './catalogue-panel';

let server: ScriptedApiServer;

const item = (over: Partial<CatalogueItem> = {}): CatalogueItem => ({
  _id: 'item-1',
  name: 'Sticker pack',
  description: '',
  priceCents: 250,
  stock: null,
  active: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const order = (over: Partial<AdminOrder> = {}): AdminOrder => ({
  _id: 'order-1',
  itemId: 'item-1',
  itemName: 'Sticker pack',
  priceCents: 250,
  status: 'paid',
  ledgerEntryId: 'entry-1',
  refundLedgerEntryId: null,
  createdAt: '2026-01-02T00:00:00.000Z',
  fulfilledAt: null,
  refundedAt: null,
  owner: { userId: 'user-9', username: 'bob' },
  ...over,
});

beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  localStorage.clear();
  storage.setToken(makeToken());
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
  server.on('GET', '/api/admin/catalogue', {
    body: { items: [item(), item({ _id: 'item-2', name: 'Old thing', active: false, stock: 0 })] },
  });
  server.on('GET', '/api/admin/orders', { body: { orders: [order()], page: 1, pageSize: 20, total: 1 } });
});
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  configureApiClient(null);
});

describe('CataloguePanel', () => {
  it('adds an item with the price in cents and unlimited stock, after checking the fields itself', async () => {
    server.on('POST', '/api/admin/catalogue', (req) => ({ status: 201, body: { item: item({ _id: 'item-3', ...(req.body as object) }) } }));
    render(<CataloguePanel isAdmin />);
    const table = await screen.findByRole('table', { name: 'Catalogue items' });
    expect(within(table).getByText('Hidden')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Add an item' });

    fireEvent.click(within(form).getByRole('button', { name: 'Add item' }));
    expect(await within(form).findByText('Enter a name')).toBeTruthy();
    expect(within(form).getByText('Enter a price in credits, e.g. 4.99')).toBeTruthy();
    expect(within(form).getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Coffee' } });
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'A real one.' } });
    fireEvent.change(within(form).getByLabelText('Price (credits)'), { target: { value: '4.99' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add item' }));
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1));
    expect(server.requests.find((r) => r.method === 'POST')!.body).toEqual({
      name: 'Coffee',
      description: 'A real one.',
      priceCents: 499,
      stock: null,
      active: true,
    });
  });

  it('hides an item with one change', async () => {
    server.on('PUT', '/api/admin/catalogue/item-1', (req) => ({ body: { item: item({ ...(req.body as object) }) } }));
    render(<CataloguePanel isAdmin />);
    fireEvent.click(await screen.findByRole('button', { name: 'Hide Sticker pack' }));
    await waitFor(() => expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ active: false }));
  });

  it('fulfils, and refunds only after a second confirmation', async () => {
    server.on('POST', '/api/admin/orders/order-1/fulfil', { body: { order: order({ status: 'fulfilled' }) } });
    server.on('POST', '/api/admin/orders/order-1/refund', {
      body: { order: order({ status: 'refunded', refundLedgerEntryId: 'entry-2' }) },
    });
    render(<CataloguePanel isAdmin />);
    fireEvent.click(await screen.findByRole('button', { name: 'Fulfil Sticker pack for bob' }));
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/admin/orders/order-1/fulfil')).toBe(true));

    // The order's buttons wait while the fulfilment is being answered: a click before then does nothing.
    const refund = () => screen.getByRole('button', { name: 'Refund Sticker pack for bob' });
    await waitFor(() => expect(refund()).toHaveProperty('disabled', false));
    fireEvent.click(refund());
    expect(server.requests.some((r) => r.path.endsWith('/refund'))).toBe(false);
    const confirm = await screen.findByRole('group', { name: 'Refund 2.50 credits to bob?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm refund of 2.50 credits' }));
    await waitFor(() => expect(server.requests.filter((r) => r.path === '/api/admin/orders/order-1/refund')).toHaveLength(1));
  });

  it('shows support the lists without the admin tools', async () => {
    render(<CataloguePanel isAdmin={false} />);
    await screen.findByRole('table', { name: 'Catalogue items' });
    expect(screen.queryByRole('form', { name: 'Add an item' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Hide/ })).toBeNull();
    expect(await screen.findByRole('button', { name: 'Fulfil Sticker pack for bob' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Refund/ })).toBeNull();
  });
});
