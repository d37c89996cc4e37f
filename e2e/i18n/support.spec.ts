import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

/**
 * The purchase and support journeys in Spanish and German, and the status page in Russian (decision
 * 0326): the catalogue and its confirmation, a new ticket and its thread, the help centre and the status
 * page show their headings, buttons and labels translated, and amounts, dates and times as the language
 * writes them. Every string checked here reads differently in English, so text left in English fails.
 */

const SLOW = { timeout: 30_000 };

const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;

/** Starts every page of this browser context in `locale`, as the device's stored choice. */
async function useLanguage(page: Page, locale: string): Promise<void> {
  await page.addInitScript((value) => window.localStorage.setItem('locale', value), locale);
}

/** A signed-in user past onboarding with 19.00 credits (a 20 USD top-up less the 5% fee). */
async function userWithCredits(page: Page): Promise<void> {
  const { token } = await signIn(page);
  const auth = { authorization: `Bearer ${token}` };
  expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  const created = await page.request.post('/api/payments/deposit', { data: { crypto: 'btc', amount: 20 }, headers: auth });
  expect(created.status(), await created.text()).toBe(201);
  const payment = (await created.json()).payment as { providerPaymentId: string };
  const moved = await page.request.post(`/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
    data: { status: 'finished' },
  });
  expect((await moved.json()).ipn).toMatchObject({ delivered: true });
}

async function addItem(page: Page, name: string): Promise<void> {
  const admin = await staffPage(page.context().browser()!, 'admin');
  const token = await admin.evaluate(() => window.localStorage.getItem('token'));
  const res = await admin.request.post('/api/admin/catalogue', {
    data: { name, description: 'Made by the language test.', priceCents: 1250, stock: 3 },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(201);
  await admin.context().close();
}

interface Words {
  locale: 'es' | 'de';
  // Purchase
  catalogue: string;
  buy: (item: string) => string;
  buyTitle: (item: string) => string;
  price: string;
  balance: string;
  after: string;
  stock: string;
  confirm: string;
  cancel: string;
  bought: (item: string) => string;
  yourOrders: string;
  paid: string;
  receipt: (item: string) => string;
  /** A date and time as the language writes it, "7 dic 2026, 15:04" or "07.12.2026, 15:04". */
  dateTime: RegExp;
  // Tickets
  newTicket: string;
  newTicketTitle: string;
  subject: string;
  category: string;
  categoryPayments: string;
  priority: string;
  priorityHigh: string;
  message: string;
  create: string;
  created: RegExp;
  messages: string;
  waitingForSupport: string;
  priorityTag: string;
  you: string;
  yourReply: string;
  sendReply: string;
  closeTicket: string;
  reopen: string;
  rate: string;
  closedNotice: string;
  /** The server's auto-close line of a thread (src/server/modules/support/rules/auto-close.ts), in the language. */
  autoClosed: string;
  allTickets: string;
  yourTickets: string;
  /** The list row's count of messages, in the language's plural: "2 mensajes". */
  messageCount: RegExp;
  // Help centre
  helpHeading: string;
  helpSearch: string;
  helpSearchButton: string;
  noMatch: string;
  askSupport: string;
  helpful: string;
  yes: string;
  thanks: string;
  openTicket: string;
  breadcrumb: string;
  helpCentre: string;
  // Status page
  statusHeading: string;
  components: string;
  database: string;
  getNotified: string;
  email: string;
  subscribe: string;
  refresh: string;
  /** "Updated 15:04:05": the time of day on the 24-hour clock both languages use. */
  updated: RegExp;
  refreshes: string;
}

const LANGUAGES: Words[] = [
  {
    locale: 'es',
    catalogue: 'Usa tus créditos',
    buy: (item) => `Comprar ${item}`,
    buyTitle: (item) => `¿Comprar ${item}?`,
    price: '12,50 créditos',
    balance: '19,00 créditos',
    after: '6,50 créditos',
    stock: 'quedan 3',
    confirm: 'Confirmar: pagar 12,50 créditos',
    cancel: 'Cancelar',
    bought: (item) => `Has comprado ${item} por 12,50 créditos. Saldo: 6,50 créditos.`,
    yourOrders: 'Tus pedidos',
    paid: 'Pagado',
    receipt: (item) => `Recibo de ${item}`,
    dateTime: /\d{1,2} \p{L}+\.? \d{4}, \d{1,2}:\d{2}/u,
    newTicket: 'Nuevo ticket',
    newTicketTitle: 'Nuevo ticket de soporte',
    subject: 'Asunto',
    category: 'Categoría',
    categoryPayments: 'Pagos y créditos',
    priority: 'Prioridad',
    priorityHigh: 'Alta',
    message: '¿En qué podemos ayudarte?',
    create: 'Crear ticket',
    created: /Ticket n\.º \d+ creado/,
    messages: 'Mensajes',
    waitingForSupport: 'Esperando al soporte',
    priorityTag: 'Prioridad: Alta',
    you: 'Tú',
    yourReply: 'Tu respuesta',
    sendReply: 'Enviar respuesta',
    closeTicket: 'Cerrar ticket',
    reopen: 'Reabrir ticket',
    rate: 'Valora la respuesta',
    closedNotice: 'Este ticket está cerrado. Abre un ticket nuevo para continuar.',
    autoClosed: 'Cerrado automáticamente: resuelto hace 7 días sin respuesta.',
    allTickets: '← Todos los tickets',
    yourTickets: 'Tus tickets',
    messageCount: /\d+ mensajes/,
    helpHeading: '¿En qué podemos ayudarte?',
    helpSearch: 'Busca en el centro de ayuda',
    helpSearchButton: 'Buscar',
    noMatch: 'Ningún artículo coincide con «zebra xylophone».',
    askSupport: 'Pregunta a nuestro equipo de soporte',
    helpful: '¿Te ha resultado útil?',
    yes: 'Sí',
    thanks: '¡Gracias! Nos alegra que te haya servido.',
    openTicket: 'Abre un ticket de soporte',
    breadcrumb: 'Ruta de navegación',
    helpCentre: 'Centro de ayuda',
    statusHeading: 'Estado de Olympus',
    components: 'Componentes',
    database: 'Base de datos',
    getNotified: 'Recibe avisos',
    email: 'Correo electrónico',
    subscribe: 'Suscribirme',
    refresh: 'Actualizar ahora',
    updated: /Actualizado a las \d{1,2}:\d{2}:\d{2}/,
    refreshes: 'se actualiza cada 30 segundos',
  },
  {
    locale: 'de',
    catalogue: 'Dein Guthaben einlösen',
    buy: (item) => `Kaufen ${item}`,
    buyTitle: (item) => `${item} kaufen?`,
    price: '12,50 Credits',
    balance: '19,00 Credits',
    after: '6,50 Credits',
    stock: 'noch 3',
    confirm: 'Bestätigen: 12,50 Credits zahlen',
    cancel: 'Abbrechen',
    bought: (item) => `${item} für 12,50 Credits gekauft. Guthaben: 6,50 Credits.`,
    yourOrders: 'Deine Bestellungen',
    paid: 'Bezahlt',
    receipt: (item) => `Beleg für ${item}`,
    dateTime: /\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}/,
    newTicket: 'Neues Ticket',
    newTicketTitle: 'Neues Support-Ticket',
    subject: 'Betreff',
    category: 'Kategorie',
    categoryPayments: 'Zahlungen und Guthaben',
    priority: 'Priorität',
    priorityHigh: 'Hoch',
    message: 'Wie können wir helfen?',
    create: 'Ticket erstellen',
    created: /Ticket #\d+ erstellt/,
    messages: 'Nachrichten',
    waitingForSupport: 'Wartet auf Support',
    priorityTag: 'Priorität: Hoch',
    you: 'Du',
    yourReply: 'Deine Antwort',
    sendReply: 'Antwort senden',
    closeTicket: 'Ticket schließen',
    reopen: 'Ticket wieder öffnen',
    rate: 'Bewerte die Antwort',
    closedNotice: 'Dieses Ticket ist geschlossen. Eröffne ein neues Ticket, um fortzufahren.',
    autoClosed: 'Automatisch geschlossen: vor 7 Tagen gelöst, ohne Antwort.',
    allTickets: '← Alle Tickets',
    yourTickets: 'Deine Tickets',
    messageCount: /\d+ Nachrichten/,
    helpHeading: 'Wie können wir helfen?',
    helpSearch: 'Im Hilfe-Center suchen',
    helpSearchButton: 'Suchen',
    noMatch: 'Kein Artikel passt zu „zebra xylophone“.',
    askSupport: 'Frag unser Support-Team',
    helpful: 'War das hilfreich?',
    yes: 'Ja',
    thanks: 'Danke! Schön, dass es geholfen hat.',
    openTicket: 'Eröffne ein Support-Ticket',
    breadcrumb: 'Brotkrümelnavigation',
    helpCentre: 'Hilfe-Center',
    statusHeading: 'Olympus-Status',
    components: 'Komponenten',
    database: 'Datenbank',
    getNotified: 'Benachrichtigt werden',
    email: 'E-Mail-Adresse',
    subscribe: 'Abonnieren',
    refresh: 'Jetzt aktualisieren',
    updated: /Aktualisiert um \d{2}:\d{2}:\d{2}/,
    refreshes: 'wird alle 30 Sekunden aktualisiert',
  },
];

for (const w of LANGUAGES) {
  test(`${w.locale}: a user buys from the catalogue, with prices, the balance and the order's date in the language`, async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(150_000);
    const name = uniqueName('Gift card');
    await addItem(page, name);
    await userWithCredits(page);
    await useLanguage(page, w.locale);
    await page.goto('/dashboard/shop');
    await expect(page.locator('html')).toHaveAttribute('lang', w.locale);

    const catalogue = page.getByRole('region', { name: w.catalogue });
    const card = catalogue.getByTestId('catalogue-item').filter({ has: page.getByRole('heading', { name, exact: true }) });
    await expect(card).toContainText(w.price, SLOW);
    await expect(card).toContainText(w.stock);
    await card.getByRole('button', { name: w.buy(name) }).click();

    const dialog = page.getByRole('dialog', { name: w.buyTitle(name) });
    await expect(dialog.getByTestId('buy-price')).toHaveText(w.price);
    await expect(dialog.getByTestId('buy-balance')).toHaveText(w.balance, SLOW);
    await expect(dialog.getByTestId('buy-balance-after')).toHaveText(w.after);
    await expect(dialog.getByRole('button', { name: w.cancel })).toBeVisible();
    await dialog.getByRole('button', { name: w.confirm }).click();
    await expect(dialog).toBeHidden(SLOW);

    await expect(page.getByTestId('catalogue-bought')).toContainText(w.bought(name), SLOW);
    await expect(catalogue.getByRole('heading', { name: w.yourOrders })).toBeVisible();
    const order = catalogue.getByTestId('order-row').filter({ hasText: name });
    await expect(order.getByTestId('order-status')).toHaveText(w.paid, SLOW);
    await expect(order).toContainText(w.price);
    await expect(order).toContainText(w.dateTime);
    await expect(order.getByRole('link', { name: w.receipt(name) })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test(`${w.locale}: a user opens a ticket, replies and closes it, all in the language`, async ({ page, consoleErrors }) => {
    test.setTimeout(120_000);
    const subject = `Ticket ${w.locale} ${Date.now().toString(36)}`;
    const { token } = await signIn(page);
    const auth = { authorization: `Bearer ${token}` };
    expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
    await useLanguage(page, w.locale);
    await page.goto('/dashboard/support');

    await page.getByRole('button', { name: w.newTicket }).click();
    const dialog = page.getByRole('dialog', { name: w.newTicketTitle });
    await dialog.getByLabel(w.subject).fill(subject);
    await dialog.getByLabel(w.category).selectOption({ label: w.categoryPayments });
    await dialog.getByLabel(w.priority).selectOption({ label: w.priorityHigh });
    await dialog.getByLabel(w.message).fill('My top-up has not arrived.');
    await dialog.getByRole('button', { name: w.create }).click();
    await expect(dialog).toBeHidden(SLOW);
    await expect(page.getByText(w.created)).toBeVisible();

    const thread = page.getByRole('list', { name: w.messages });
    await expect(thread.getByText('My top-up has not arrived.')).toBeVisible();
    await expect(thread.getByText(w.you, { exact: true })).toBeVisible();
    await expect(thread.locator('time').first()).toHaveText(w.dateTime);
    await expect(page.getByText(w.waitingForSupport)).toBeVisible();
    await expect(page.getByText(w.priorityTag)).toBeVisible();

    await page.getByLabel(w.yourReply).fill('It was 20 USD in BTC.');
    await page.getByRole('button', { name: w.sendReply }).click();
    await expect(thread.getByText('It was 20 USD in BTC.')).toBeVisible(SLOW);

    await page.getByRole('button', { name: w.closeTicket }).click();
    await expect(page.getByRole('button', { name: w.reopen })).toBeVisible(SLOW);
    await expect(page.getByRole('form', { name: w.rate })).toBeVisible();
    await expect(page.getByText(w.closedNotice)).toBeVisible();

    // The line the support auto-close writes into a thread, as the server stores it (English), read in the
    // language: the thread's answer carries it as an event (auto-close needs a ticket resolved days ago).
    const ticketPath = /\/api\/tickets\/[^/?]+$/;
    await page.route(ticketPath, async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      const response = await route.fetch();
      const json = (await response.json()) as { ticket: { messages: Record<string, unknown>[] } };
      const last = json.ticket.messages.at(-1)!;
      json.ticket.messages.push({
        ...last,
        _id: `${String(last._id)}-auto-close`,
        author: 'staff',
        authorName: 'Olympus',
        kind: 'event',
        body: 'Closed automatically: resolved 7 days ago without a reply.',
        attachments: [],
      });
      await route.fulfill({ response, json });
    });
    await page.reload();
    await expect(thread.getByText(w.autoClosed)).toBeVisible(SLOW);
    await expect(thread.getByText('Closed automatically', { exact: false })).toHaveCount(0);
    await page.unroute(ticketPath);

    await page.getByRole('button', { name: w.allTickets }).click();
    const row = page.getByRole('list', { name: w.yourTickets }).getByRole('link', { name: new RegExp(subject) });
    await expect(row).toContainText(w.dateTime, SLOW);
    await expect(row).toContainText(w.messageCount);
    expect(consoleErrors).toEqual([]);
  });

  test(`${w.locale}: the help centre searches, shows an article and takes a vote in the language`, async ({ page, consoleErrors }) => {
    await useLanguage(page, w.locale);
    await page.goto('/help');
    await expect(page.getByRole('heading', { level: 1, name: w.helpHeading })).toBeVisible();
    await expect(page.getByRole('button', { name: w.helpSearchButton })).toBeVisible();
    await page.getByLabel(w.helpSearch).fill('zebra xylophone');
    await expect(page.getByText(w.noMatch)).toBeVisible(SLOW);
    await expect(page.getByRole('link', { name: w.askSupport })).toBeVisible();

    // The articles' own text comes from the server, in English; the page around them is translated.
    await page.goto('/help/claiming-rewards');
    await expect(page.getByRole('navigation', { name: w.breadcrumb }).getByRole('link', { name: w.helpCentre })).toBeVisible();
    await expect(page.getByRole('heading', { name: w.helpful })).toBeVisible(SLOW);
    await expect(page.getByRole('link', { name: w.openTicket })).toBeVisible();
    await page.getByRole('button', { name: w.yes, exact: true }).click();
    await expect(page.getByText(w.thanks)).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test(`${w.locale}: the status page is in the language once chosen in the header`, async ({ page, consoleErrors }) => {
    await page.goto('/status');
    await expect(page.getByRole('heading', { level: 1, name: 'Olympus Status' })).toBeVisible();
    // Chosen on the open page: it renders again in the language, without a reload.
    await page.getByRole('combobox', { name: 'Language' }).selectOption(w.locale);
    await expect(page.getByRole('heading', { level: 1, name: w.statusHeading })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: w.components })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: w.database })).toBeVisible(SLOW);
    await expect(page.getByRole('heading', { level: 2, name: w.getNotified })).toBeVisible();
    await expect(page.getByLabel(w.email)).toBeVisible();
    await expect(page.getByRole('button', { name: w.subscribe, exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: w.refresh })).toBeVisible();
    await expect(page.getByText(w.updated)).toBeVisible(SLOW);
    await expect(page.getByText(w.refreshes)).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
}

test('ru: the status page in Russian', async ({ page, consoleErrors }) => {
  await useLanguage(page, 'ru');
  await page.goto('/status');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('heading', { level: 1, name: 'Статус Olympus' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Компоненты' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'Платёжный провайдер' })).toBeVisible(SLOW);
  await expect(page.getByRole('heading', { level: 2, name: 'Получать уведомления' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Обновить сейчас' })).toBeVisible();
  await expect(page.getByText('обновляется каждые 30 секунд')).toBeVisible();
  await expect(page.getByText(/Обновлено в \d{1,2}:\d{2}:\d{2}/)).toBeVisible(SLOW);
  expect(consoleErrors).toEqual([]);
});
