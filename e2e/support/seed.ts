import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { expect, quietNotificationStream } from './fixtures.js';
import staff from './staff-accounts.json' with { type: 'json' };

/**
 * Accounts with data on them, made through the API the way the app's own screens would (and the
 * payment sandbox moving payments as NOWPayments would), for the sweeps over every route.
 */

const PASSWORD = 'correct horse battery staple';

export type Auth = { authorization: string };

export interface SeededUser {
  token: string;
  username: string;
  userId: string;
  /** /payment/process?… of a payment still waiting. */
  openPaymentUrl: string;
  /** The id of a payment that finished. */
  finishedPaymentId: string;
  /** A ledger entry with a receipt (the finished top-up). */
  receiptEntryId: string;
}

async function json<T>(res: Awaited<ReturnType<APIRequestContext['get']>>, status: number): Promise<T> {
  expect(res.status(), await res.text()).toBe(status);
  return (await res.json()) as T;
}

/** A fresh account, past onboarding. `prefix` keeps names of the same width between runs. */
export async function registerPastOnboarding(
  request: APIRequestContext,
  prefix = 'e2e',
): Promise<{ token: string; username: string; auth: Auth }> {
  const username = `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const { token } = await json<{ token: string }>(
    await request.post('/api/register', { data: { username, email: `${username}@example.com`, password: PASSWORD, turnstileToken: 'ok' } }),
    201,
  );
  const auth = { authorization: `Bearer ${token}` };
  expect((await request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);
  return { token, username, auth };
}

interface CreatedPayment {
  _id: string;
  providerPaymentId: string;
  payAddress: string | null;
  payAmount: string | null;
  payCurrency: string;
  extraId: string | null;
}

/** Starts a top-up of `amount` USD in BTC. */
export async function startTopUp(request: APIRequestContext, auth: Auth, amount: number): Promise<CreatedPayment> {
  const { payment } = await json<{ payment: CreatedPayment }>(
    await request.post('/api/payments/deposit', { data: { crypto: 'btc', amount }, headers: auth }),
    201,
  );
  return payment;
}

/** Moves a sandbox payment to `status` (the sandbox sends the signed IPN). */
export async function movePayment(request: APIRequestContext, providerPaymentId: string, status: string): Promise<void> {
  const moved = await request.post(`/sandbox/nowpayments/payments/${providerPaymentId}/status`, { data: { status } });
  expect((await moved.json()).ipn).toMatchObject({ delivered: true });
}

export function paymentProcessPath(p: CreatedPayment): string {
  const q = new URLSearchParams({ address: p.payAddress ?? '', amount: p.payAmount ?? '', currency: p.payCurrency, id: p._id });
  if (p.extraId) q.set('extraId', p.extraId);
  return `/payment/process?${q.toString()}`;
}

/** A user with a finished 100 USD top-up (97.00 credits), a 25 USD one still open, and a support ticket. */
export async function seedUser(request: APIRequestContext, prefix = 'e2e'): Promise<SeededUser> {
  const { token, username, auth } = await registerPastOnboarding(request, prefix);
  const finished = await startTopUp(request, auth, 100);
  await movePayment(request, finished.providerPaymentId, 'finished');
  const open = await startTopUp(request, auth, 25);
  const { receiptEntryId } = await json<{ receiptEntryId: string | null }>(
    await request.get(`/api/payments/${finished._id}`, { headers: auth }),
    200,
  );
  expect(receiptEntryId).toBeTruthy();
  const me = await json<{ user: { _id: string } }>(await request.get('/api/auth/me', { headers: auth }), 200);
  const ticket = await request.post('/api/tickets', {
    data: { subject: 'Where is my deposit?', message: 'I sent BTC an hour ago and the page still says waiting.', category: 'payments' },
    headers: auth,
  });
  expect(ticket.status(), await ticket.text()).toBeLessThan(300);
  return {
    token,
    username,
    userId: me.user._id,
    openPaymentUrl: paymentProcessPath(open),
    finishedPaymentId: finished._id,
    receiptEntryId: receiptEntryId!,
  };
}

/** A staff member's token, through the login API (the bot check's sandbox accepts any token). */
export async function staffToken(request: APIRequestContext, role: keyof typeof staff): Promise<string> {
  const account = staff[role];
  const body = await json<{ token: string }>(
    await request.post('/api/login', { data: { username: account.username, password: account.password, turnstileToken: 'ok' } }),
    200,
  );
  const auth = { authorization: `Bearer ${body.token}` };
  // Staff skip onboarding (decision 0236); saying so again is harmless for older accounts.
  await request.put('/api/onboarding', { data: { completed: true }, headers: auth });
  return body.token;
}

/** A guest session's token and id. */
export async function guestSession(request: APIRequestContext): Promise<{ token: string; guestId: string }> {
  const body = await json<{ token: string; guestId: string }>(await request.post('/api/guest'), 201);
  return body;
}

export type Role = 'signed-out' | 'guest' | 'user' | 'staff';

/** A browser context signed in as `role` from its first page on (the token where the app keeps it). */
export async function contextAs(
  browser: Browser,
  role: Role,
  session: { token?: string; guestId?: string },
  options: { width: number; height?: number; theme?: 'light' | 'dark' },
): Promise<{ context: BrowserContext; page: Page }> {
  // Reduced motion: colours change at once when the theme switches, so axe reads the settled page and
  // never a button half-way through its 0.15 s colour transition.
  const context = await browser.newContext({ viewport: { width: options.width, height: options.height ?? 900 }, reducedMotion: 'reduce' });
  await quietNotificationStream(context);
  await context.addInitScript(
    ({ role, session, theme }) => {
      if (theme && !window.localStorage.getItem('theme')) window.localStorage.setItem('theme', theme);
      if (role === 'signed-out') return;
      if (window.localStorage.getItem('token')) return;
      window.localStorage.setItem('token', session.token!);
      window.localStorage.setItem('userType', role === 'guest' ? 'guest' : 'user');
      if (session.guestId) window.localStorage.setItem('guestId', session.guestId);
    },
    { role, session, theme: options.theme },
  );
  const page = await context.newPage();
  return { context, page };
}
