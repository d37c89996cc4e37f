import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { movePayment, registerPastOnboarding, startTopUp } from '../support/seed.js';
import { chooseInHeader } from './choose-language.js';

/**
 * The money journeys in other languages (decision 0326): the wallet's top-up, histories and payment page,
 * and the exchange, with their credits, crypto amounts and dates written as each language writes them.
 */

/** A fresh account with a finished 1,300 USD top-up (1 % fee: 1,287.00 credits), signed in on `page` in `locale`. */
async function walletIn(page: Page, locale: string): Promise<void> {
  const { token, auth } = await registerPastOnboarding(page.request, 'i18n');
  const payment = await startTopUp(page.request, auth, 1300);
  await movePayment(page.request, payment.providerPaymentId, 'finished');
  await page.addInitScript(
    ({ token, locale }) => {
      window.localStorage.setItem('token', token);
      window.localStorage.setItem('userType', 'user');
      window.localStorage.setItem('locale', locale);
    },
    { token, locale },
  );
}

test('the wallet and the payment page in German: headings, buttons, labels, credits and dates written the German way', async ({
  page,
  consoleErrors,
}) => {
  await walletIn(page, 'de');
  await page.goto('/dashboard/wallet');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');

  // The balance and the amounts: a dot groups thousands, a comma separates the cents.
  await expect(page.getByRole('region', { name: 'Guthaben', exact: true }).getByTestId('credit-balance')).toHaveText('1.287,00');

  const payments = page.getByRole('region', { name: 'Zahlungsverlauf' });
  await expect(payments.getByRole('columnheader', { name: 'Datum' })).toBeVisible();
  await expect(payments.getByRole('columnheader', { name: 'Betrag' })).toBeVisible();
  const row = payments.getByRole('row').nth(1);
  await expect(row.getByRole('cell').nth(1)).toHaveText('1.300,00 USD');
  await expect(row.getByRole('cell').nth(3)).toHaveText('1.287,00');
  await expect(row.getByText('Abgeschlossen')).toBeVisible();
  await expect(row.getByRole('link', { name: 'Details' })).toBeVisible();
  // "07.12.2026, 15:04" in German; "Dec 7, 2026, 3:04 PM" in English.
  await expect(row.getByRole('cell').first()).toHaveText(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);

  const ledger = page.getByRole('region', { name: 'Guthabenverlauf' });
  await expect(ledger.getByText('+1.287,00')).toBeVisible();
  await expect(ledger.getByText('Aufladung', { exact: true })).toBeVisible();
  await expect(ledger.getByText('Krypto-Aufladung über 1.300,00 USD (BTC)', { exact: true })).toBeVisible();
  await expect(ledger.getByRole('button', { name: 'CSV herunterladen' })).toBeVisible();

  // The top-up form.
  const panel = page.getByRole('region', { name: 'Guthaben aufladen' });
  await expect(panel.getByRole('button', { name: 'Weiter zur Zahlung' })).toBeVisible();
  await panel.getByLabel('Währungen suchen').fill('bitc');
  await panel.getByRole('radio', { name: /Bitcoin/ }).check();
  await panel.getByLabel('Betrag (USD)').fill('1300');
  await expect(panel.getByTestId('topup-amount')).toHaveText('1.300,00 USD');
  await expect(panel.getByTestId('topup-fee')).toHaveText('13,00 USD');
  await expect(panel.getByTestId('topup-credits')).toHaveText('1.287,00 Credits');
  await expect(panel.getByText('Bearbeitungsgebühr (1 %)')).toBeVisible();
  await expect(panel.getByText('Du erhältst')).toBeVisible();
  await panel.getByRole('button', { name: 'Mit BTC bezahlen' }).click();

  // The payment page: title, warning, countdown, the exact crypto amount with a decimal comma.
  await expect(page).toHaveURL(/\/payment\/process\?/);
  await expect(page.getByRole('heading', { level: 1, name: 'Schließe deine Zahlung ab' })).toBeVisible();
  await expect(page).toHaveTitle(/^Schließe deine Zahlung ab · Olympus$/);
  await expect(page.getByText('Schließe diese Seite nicht')).toBeVisible();
  await expect(page.getByText('Verbleibende Zeit:')).toBeVisible();
  await expect(page.getByTestId('payment-pay-amount')).toHaveText(/^0,02\d* BTC$/);
  await expect(page.getByTestId('payment-credits')).toHaveText('1.287,00');
  await expect(page.getByRole('button', { name: 'Adresse kopieren' })).toBeVisible();
  await expect(page.getByTestId('payment-status-message')).toHaveText('Warte auf Zahlung...');
  expect(consoleErrors).toEqual([]);
});

test('the top-up form in Spanish, and the wallet in Russian', async ({ page, consoleErrors }) => {
  await walletIn(page, 'es');
  await page.goto('/dashboard/wallet');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1, name: 'Monedero' })).toBeVisible();
  await expect(page.getByTestId('credit-balance')).toHaveText('1287,00');

  const panel = page.getByRole('region', { name: 'Recargar créditos' });
  await expect(panel.getByText('Paga con criptomonedas. Los créditos se añaden cuando se confirma el pago.')).toBeVisible();
  await expect(panel.getByRole('radiogroup', { name: 'Monedas' })).toBeVisible();
  await panel.getByRole('button', { name: 'Continuar al pago' }).click();
  await expect(panel.getByText('Elige una moneda')).toBeVisible();
  await expect(panel.getByText('Introduce un importe en USD')).toBeVisible();
  await panel.getByLabel('Buscar monedas').fill('bitc');
  await panel.getByRole('radio', { name: /Bitcoin/ }).check();
  await panel.getByLabel('Importe (USD)').fill('100');
  await expect(panel.getByTestId('topup-credits')).toHaveText('97,00 créditos');
  await expect(panel.getByText('Comisión de procesamiento (3 %)')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Pagar con BTC' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Historial de pagos' }).getByText('Completado')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Historial de créditos' }).getByText('+1287,00')).toBeVisible();
  // The top-up's line is stored in English (the API's description) and read in Spanish (decision 0330).
  await expect(
    page.getByRole('region', { name: 'Historial de créditos' }).getByText('Recarga cripto de 1300,00 USD (BTC)', { exact: true }),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Historial de créditos' }).getByText('Crypto top-up', { exact: false })).toHaveCount(0);

  await chooseInHeader(page, 'Idioma', 'ru');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('heading', { level: 1, name: 'Кошелёк' })).toBeVisible();
  const russian = page.getByRole('region', { name: 'Пополнить кредиты' });
  await expect(russian.getByRole('button', { name: 'Оплатить в BTC' })).toBeVisible();
  await expect(russian.getByText('Комиссия за обработку (3%)')).toBeVisible();
  await expect(page.getByRole('region', { name: 'История платежей' }).getByText('Завершён')).toBeVisible();
  // Russian groups thousands with a no-break space.
  await expect(page.getByTestId('credit-balance')).toHaveText('1\u00a0287,00');

  // The top-up's receipt, from its line in the credit history.
  await page
    .getByRole('region', { name: 'История кредитов' })
    .getByRole('link', { name: /^Квитанция/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Квитанция: Пополнение' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Печать' })).toBeVisible();
  await expect(page.getByTestId('receipt-amount')).toHaveText(/^\+1\s287,00 кредита$/);
  await expect(page.getByTestId('receipt-description')).toHaveText(/^Пополнение криптовалютой на 1\s300,00 USD \(BTC\)$/);
  expect(consoleErrors).toEqual([]);
});

test('the exchange in Spanish and German: the form, its estimate and the reward claim', async ({ page, consoleErrors }) => {
  await walletIn(page, 'es');
  await page.goto('/dashboard/exchanges');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1, name: 'Intercambio' })).toBeVisible();
  const section = page.locator('section#exchange');
  await expect(section.getByRole('heading', { name: 'Intercambia cripto y gana recompensas' })).toBeVisible();
  await expect(section.getByRole('combobox', { name: 'Envías' })).toHaveValue('Bitcoin (BTC)');
  await expect(section.getByRole('combobox', { name: 'Recibes' })).toHaveValue('Ethereum (ETH)');
  // BTC to ETH at 0.01 BTC, the sandbox's prices: 0.203125 ETH and a reward of 3.25 credits.
  await expect(section.getByTestId('exchange-range')).toHaveText('Mín. 0,00015385 BTC · Máx. 2 BTC');
  await expect(section.getByLabel('Importe a enviar (BTC)')).toBeVisible();
  await expect(section.getByTestId('estimate-amount')).toHaveText('0,203125 ETH');
  await expect(section.getByTestId('estimate-reward')).toHaveText('3,25 créditos');
  await expect(section.getByTestId('estimate-rate')).toHaveText('Tipo variable, puede cambiar');
  await expect(section.getByRole('button', { name: 'Intercambiar ahora' })).toBeVisible();
  await expect(section.getByRole('heading', { name: 'Cómo funciona un intercambio' })).toBeVisible();
  await section.getByRole('button', { name: 'Intercambiar ahora' }).click();
  await expect(section.getByText('Introduce tu dirección de cobro de ETH')).toBeVisible();

  const claim = page.getByRole('region', { name: 'Reclamar una recompensa' });
  await expect(claim.getByLabel('ID del intercambio')).toBeVisible();
  await claim.getByRole('button', { name: 'Reclamar recompensa' }).click();
  await expect(claim.getByText('Introduce el ID del intercambio', { exact: true })).toBeVisible();
  await expect(claim.getByText('Introduce el código de reclamación', { exact: true })).toBeVisible();

  await chooseInHeader(page, 'Idioma', 'de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(section.getByRole('heading', { name: 'Tausche Krypto und verdiene Prämien' })).toBeVisible();
  await expect(section.getByRole('combobox', { name: 'Du sendest' })).toBeVisible();
  await expect(section.getByTestId('estimate-reward')).toHaveText('3,25 Credits');
  await expect(section.getByTestId('estimate-amount')).toHaveText('0,203125 ETH');
  await expect(section.getByRole('button', { name: 'Jetzt tauschen' })).toBeVisible();
  await expect(section.getByRole('radio', { name: /Fester Kurs/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Prämie einlösen' }).getByRole('button', { name: 'Prämie einlösen' })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
