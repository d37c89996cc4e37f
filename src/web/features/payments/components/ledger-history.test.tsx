import { act, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerText } from '#shared/ledger-texts';
import type { LedgerEntry } from '#shared/schemas/credits';
import { activateLocale } from '#web/features/language';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { renderWithQuery } from '#web/test/render';
import { LedgerHistory } from './ledger-history';
import { describeDebt, describeLedgerEntry } from './ledger-describe';
import { receiptTitle } from './ledger-kinds';

const server = setupScriptedApi();

let n = 0;
const entry = (kind: LedgerEntry['kind'], description: string): LedgerEntry => ({
  _id: `e${++n}`,
  kind,
  amountCents: kind === 'spend' || kind === 'settlement' || kind === 'forfeit' ? -100 : 100,
  balanceAfterCents: 1000,
  reference: `ref:${n}`,
  description,
  createdAt: '2026-12-01T10:00:00.000Z',
});

/** One entry of each kind the system writes, as the server stores them (through the same writers), and free text. */
const ENTRIES: LedgerEntry[] = [
  entry('payment', ledgerText('cryptoTopUp', { priceCents: 130_000, coin: 'BTC' })),
  entry('payment', ledgerText('partialCryptoPayment', { coin: 'LTC' })),
  entry('reward', ledgerText('exchangeReward', { amount: '0.123456789012345678', from: 'XMR', to: 'BTC', cents: 1234 })),
  entry('refund', ledgerText('paymentReversed', { way: 'refunded', coin: 'ETH' })),
  entry('settlement', ledgerText('settlementPartial', { stillOwedCents: 4250 })),
  entry('settlement', ledgerText('settlementFull', { paidCents: 1000 })),
  entry('forfeit', ledgerText('balanceForfeited', {})),
  entry('adjustment', ledgerText('adjustmentBySupport', {})),
  entry('refund', ledgerText('chargeRefund', { description: 'Pro plan, March' })),
  entry('spend', ledgerText('order', { item: 'Sticker pack' })),
  entry('refund', ledgerText('orderRefund', { item: 'Mug' })),
  entry('referral_reward', ledgerText('referralReward', { share: '10%', maskedName: 'an***' })),
  entry('welcome_bonus', ledgerText('welcomeBonus', {})),
  // What people wrote: a staff member's note, a merchant's charge.
  entry('adjustment', 'Goodwill credit after the outage'),
  entry('spend', 'Pro plan, April'),
];

function renderHistory() {
  server.on('GET', '/api/credits/history', {
    body: { entries: ENTRIES, balanceCents: 1000, total: ENTRIES.length, page: 1, pageSize: 50 },
  });
  const router = createMemoryRouter([{ path: '*', element: <LedgerHistory /> }], { initialEntries: ['/dashboard/wallet'] });
  return renderWithQuery(<RouterProvider router={router} />);
}

/** The "What" cell of each row, in order. */
async function whatCells(): Promise<string[]> {
  const table = await screen.findByRole('table');
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('.muted')!.textContent!);
}

afterEach(async () => {
  await act(() => activateLocale('en'));
});

describe('ledger descriptions in the reader’s language (docs/decisions/0330)', () => {
  it('shows the stored English in English, with amounts grouped as the rest of the English page writes them', async () => {
    renderHistory();
    const english = ENTRIES.map((e) => e.description);
    english[0] = 'Crypto top-up of 1,300.00 USD (BTC)';
    expect(await whatCells()).toEqual(english);
  });

  it('translates the system’s wording in Spanish, writing amounts the Spanish way, and keeps what people wrote', async () => {
    await act(() => activateLocale('es'));
    renderHistory();
    expect(await whatCells()).toEqual([
      'Recarga cripto de 1300,00 USD (BTC)',
      'Pago cripto parcial (LTC)',
      'Recompensa por intercambio: 0,123456789012345678 XMR a BTC (12,34 créditos)',
      'Pago cripto reembolsado (ETH): se retiraron sus créditos',
      'Abono a la deuda pendiente (aún se deben 42,50 créditos)',
      'Deuda pendiente pagada (10,00 créditos)',
      'Saldo perdido al cerrar y borrar la cuenta',
      'Ajuste de saldo por soporte',
      'Reembolso: Pro plan, March',
      'Pedido: Sticker pack',
      'Reembolso del pedido: Mug',
      expect.stringMatching(/^Recompensa por referido: 10\s?% de una recarga de an\*\*\*$/),
      'Bono de bienvenida por unirte con un enlace de referido',
      'Goodwill credit after the outage',
      'Pro plan, April',
    ]);
    // The receipt link's hidden words name the entry in Spanish too.
    expect(screen.getAllByRole('link')[0]!.textContent).toContain('de Recarga cripto de 1300,00 USD (BTC)');
  });

  it('translates in German: a dot groups thousands, a comma separates the cents, crypto keeps every digit', async () => {
    await act(() => activateLocale('de'));
    renderHistory();
    const cells = await whatCells();
    expect(cells[0]).toBe('Krypto-Aufladung über 1.300,00 USD (BTC)');
    expect(cells[2]).toBe('Tauschprämie: 0,123456789012345678 XMR zu BTC (12,34 Credits)');
    expect(cells[8]).toBe('Erstattung: Pro plan, March');
    expect(cells[9]).toBe('Bestellung: Sticker pack');
    expect(cells[13]).toBe('Goodwill credit after the outage');
    expect(cells[14]).toBe('Pro plan, April');
  });

  it('names receipts and debts in the language, and leaves an unknown text as stored', async () => {
    await act(() => activateLocale('es'));
    expect(receiptTitle(ENTRIES[9]!)).toBe('Compra de Sticker pack');
    expect(receiptTitle(ENTRIES[14]!)).toBe('Compra de Pro plan, April');
    expect(receiptTitle({ kind: 'spend', description: ledgerText('adCampaignBudget', { campaign: 'Spring' }) })).toBe(
      'Compra de Presupuesto de campaña publicitaria: Spring',
    );
    expect(
      describeDebt({
        description: ledgerText('paymentReversedDebt', { way: 'refunded', priceCents: 10_000, coin: 'BTC', creditedCents: 9700 }),
      }),
    ).toBe('Pago cripto de 100,00 USD (BTC) devuelto al remitente después de haber gastado en parte sus 97,00 créditos');
    // A top-up's wording on another kind of entry (a staff note that reads like one) is what a person wrote.
    expect(describeLedgerEntry({ kind: 'adjustment', description: 'Crypto top-up of 10.00 USD (BTC)' })).toBe(
      'Crypto top-up of 10.00 USD (BTC)',
    );
    expect(describeLedgerEntry({ kind: 'payment', description: 'Top-up from the old system' })).toBe('Top-up from the old system');
  });
});
