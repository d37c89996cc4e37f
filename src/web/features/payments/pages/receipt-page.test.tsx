import { fireEvent, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderWithQuery } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import ReceiptPage from './receipt-page';

const ENTRY_ID = '5b1f0c3e-0000-4000-8000-000000000009';
const CHARGE_ID = '5b1f0c3e-0000-4000-8000-00000000000c';
const server = setupScriptedApi();

function renderAt(entryId: string) {
  renderWithQuery(
    <MemoryRouter initialEntries={[`/dashboard/receipts/${entryId}`]}>
      <Routes>
        <Route path="/dashboard/receipts/:entryId" element={<ReceiptPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('ReceiptPage', () => {
  it('shows the entry with its ledger reference and charge, and prints', async () => {
    server.on('GET', `/api/credits/ledger/${ENTRY_ID}/receipt`, {
      body: {
        receipt: {
          entry: {
            _id: ENTRY_ID,
            kind: 'spend',
            amountCents: -350,
            balanceAfterCents: 1650,
            reference: `charge:${CHARGE_ID}`,
            description: 'Render job #42',
            createdAt: '2026-11-25T10:00:00.000Z',
          },
          account: { username: 'ada', email: 'ada@example.com' },
          payment: null,
          charge: { id: CHARGE_ID, description: 'Render job #42', metadata: { job: '42' }, status: 'succeeded' },
        },
      },
    });
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderAt(ENTRY_ID);
    expect(await screen.findByRole('heading', { level: 1, name: 'Receipt: Purchase of Render job #42' })).toBeTruthy();
    expect(screen.getByTestId('receipt-reference').textContent).toBe(`charge:${CHARGE_ID}`);
    expect(screen.getByTestId('receipt-amount').textContent).toBe('−3.50 credits');
    expect(screen.getByText('ada (ada@example.com)')).toBeTruthy();
    expect(screen.getByText('job')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
    print.mockRestore();
  });

  it.each([
    ['spend', 'order:5b1f0c3e-0000-4000-8000-00000000000d', 'Order: Priority support', 'Receipt: Purchase of Priority support'],
    ['payment', 'payment:5b1f0c3e-0000-4000-8000-00000000000e', 'Crypto payment (BTC)', 'Receipt: Top-up'],
    ['refund', 'order-refund:5b1f0c3e-0000-4000-8000-00000000000d', 'Refund: Priority support', 'Receipt: Refund'],
    ['adjustment', 'adjustment:key-1', 'Balance adjustment by support', 'Receipt: Balance adjustment'],
  ])('titles a %s entry after what it was', async (kind, reference, description, title) => {
    server.on('GET', `/api/credits/ledger/${ENTRY_ID}/receipt`, {
      body: {
        receipt: {
          entry: {
            _id: ENTRY_ID,
            kind,
            amountCents: kind === 'spend' ? -300 : 300,
            balanceAfterCents: 700,
            reference,
            description,
            createdAt: '2026-11-25T10:00:00.000Z',
          },
          account: { username: 'ada', email: 'ada@example.com' },
          payment: null,
          charge: null,
        },
      },
    });
    renderAt(ENTRY_ID);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect(document.title).toContain(title);
  });

  it("says so when the entry is not the user's", async () => {
    server.on('GET', `/api/credits/ledger/${ENTRY_ID}/receipt`, { status: 404, body: { error: 'Receipt not found', code: 'NOT_FOUND' } });
    renderAt(ENTRY_ID);
    expect((await screen.findByRole('alert')).textContent).toBe('There is no such receipt in your account.');
    expect(screen.queryByRole('button', { name: 'Print' })).toBeNull();
  });
});
