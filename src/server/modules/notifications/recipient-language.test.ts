import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, guestHeaders, registerUser, startGuest } from '#server/test/http.js';
import { control, deposit } from '#server/test/payments.js';
import { TestSmtp, until, type Received } from '#server/test/smtp.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

/**
 * Everything the server writes to a person follows `users.locale` (docs/decisions/0328): the payment's
 * mail over SMTP, its in-app notice, and its Telegram message through the Telegram sandbox; English
 * (no language chosen) stays as it was.
 */

type Account = Awaited<ReturnType<typeof registerUser>>;

/** A header with its RFC 2047 encoded words decoded (nodemailer encodes a subject that is not ASCII). */
function header(raw: string, name: string): string {
  const head = (raw.split(/\r?\n\r?\n/, 1)[0] ?? '').replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`)) ?? '';
  return line
    .slice(name.length + 1)
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** The text (or HTML) part, decoded from its transfer encoding (quoted-printable or base64) as UTF-8. */
function text(raw: string, type: 'plain' | 'html' = 'plain'): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const part = raw.split(`--${boundary}`).find((p) => new RegExp(`Content-Type: text/${type}`, 'i').test(p));
  if (!part) throw new Error(`no ${type} part`);
  const [head, ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: base64/i.test(head!)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head!)) {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Logs in on the sandbox Telegram page, allowing the bot to write, and connects that account; answers the chat id. */
async function connectTelegram(t: TestApp, token: string): Promise<string> {
  const config = await call(t, 'GET', '/api/auth/telegram/config');
  const url = new URL(config.json.sandboxLoginUrl as string);
  const form = new URLSearchParams({
    ...Object.fromEntries(url.searchParams),
    username: `tg_${randomBytes(4).toString('hex')}`,
    first_name: 'Ada',
    allow_write: '1',
  });
  const res = await fetch(`${t.url}${url.pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  const fields = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
  expect((await call(t, 'POST', '/api/auth/verify-telegram', { token, body: fields })).json.verified).toBe(true);
  const connected = await call(t, 'POST', '/api/users/connect/telegram', {
    token,
    body: { telegramId: fields.id, username: fields.username, firstName: 'Ada', lastName: null },
  });
  expect(connected.status).toBe(200);
  return fields.id!;
}

interface Expected {
  subject: string;
  mailText: string[];
  title: string;
  body: string;
  linkLabel: string;
}

/** What a 100 USD sandbox payment in BTC (97.00 credits after the fee) says, in each language. */
const EXPECTED: Record<'en' | 'es' | 'ru' | 'de', Expected> = {
  en: {
    subject: 'Payment credited: 97.00 credits',
    mailText: ['Your payment was credited', 'Amount paid: 100.00 USD (in BTC)', 'Processing fee: 3.00 USD', 'See the payment: '],
    title: 'Payment credited',
    body: 'Your payment of 100.00 USD in BTC is complete: 97.00 credits were added to your balance.',
    linkLabel: 'Open in Olympus',
  },
  es: {
    subject: 'Pago acreditado: 97,00 créditos',
    mailText: ['Tu pago se ha acreditado', 'Importe pagado: 100,00 USD (en BTC)', 'Comisión de procesamiento: 3,00 USD', 'Ver el pago: '],
    title: 'Pago acreditado',
    body: 'Tu pago de 100,00 USD en BTC se ha completado: se añadieron 97,00 créditos a tu saldo.',
    linkLabel: 'Abrir en Olympus',
  },
  ru: {
    subject: 'Платёж зачислен: 97,00 кредита',
    mailText: ['Ваш платёж зачислен', 'Оплаченная сумма: 100,00 USD (в BTC)', 'Комиссия за обработку: 3,00 USD', 'Посмотреть платёж: '],
    title: 'Платёж зачислен',
    body: 'Ваш платёж 100,00 USD в BTC завершён: на баланс зачислено кредитов: 97,00.',
    linkLabel: 'Открыть в Olympus',
  },
  de: {
    subject: 'Zahlung gutgeschrieben: 97,00 Credits',
    mailText: [
      'Deine Zahlung wurde gutgeschrieben',
      'Gezahlter Betrag: 100,00 USD (in BTC)',
      'Bearbeitungsgebühr: 3,00 USD',
      'Zahlung ansehen: ',
    ],
    title: 'Zahlung gutgeschrieben',
    body: 'Deine Zahlung über 100,00 USD in BTC ist abgeschlossen: 97,00 Credits wurden deinem Guthaben hinzugefügt.',
    linkLabel: 'In Olympus öffnen',
  },
};

describe.each(enginesFor('database'))('mail, notices and chat in the recipient’s language (%s)', { timeout: 120_000 }, (engine) => {
  const smtp = new TestSmtp();
  let t: TestApp;
  beforeAll(async () => {
    await smtp.start();
    t = await startTestApp(engine, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Olympus Test <robot@olympus.example>',
      PUBLIC_URL: 'https://olympus.example',
      RATE_LIMITS: '0',
    });
  }, 300_000);
  afterAll(async () => {
    await t?.close();
    await smtp.stop();
  }, 120_000);

  async function accountIn(locale: keyof typeof EXPECTED): Promise<Account> {
    const user = await registerUser(t);
    if (locale !== 'en') {
      const res = await call(t, 'PUT', '/api/users/locale', { token: user.token, body: { locale } });
      expect(res.status).toBe(200);
    }
    return user;
  }

  async function payAndRead(user: Account, chatId: string) {
    const p = await deposit(t, user.token);
    for (const step of ['confirming', 'confirmed', 'sending', 'finished']) await control(t, p.providerPaymentId, { status: step });
    const email = `${user.username}@example.com`;
    const mail = await until('the payment mail', () =>
      smtp.to(email).find((m: Received) => !/Confirm your email|Confirma|Подтвердите|Bestätige/.test(header(m.raw, 'Subject'))),
    );
    const notices = await call(t, 'GET', '/api/notifications', { token: user.token });
    expect(notices.status).toBe(200);
    const chat = await until('the Telegram message', async () => {
      const res = await call(t, 'GET', `/sandbox/telegram/messages?chatId=${chatId}`);
      return (res.json.messages as Array<{ shownText: string; links: string[] }>)[0];
    });
    return { p, mail, notice: notices.json.notifications[0] as { title: string; body: string; link: string }, chat };
  }

  for (const locale of ['es', 'de', 'ru', 'en'] as const) {
    it(`a credited payment: the mail, the in-app notice and the Telegram message are in ${locale}`, async () => {
      const user = await accountIn(locale);
      const chatId = await connectTelegram(t, user.token);
      const { p, mail, notice, chat } = await payAndRead(user, chatId);
      const expected = EXPECTED[locale];

      expect(header(mail.raw, 'Subject')).toBe(expected.subject);
      const body = text(mail.raw);
      for (const line of expected.mailText) expect(body).toContain(line);
      expect(body).toContain(`https://olympus.example/dashboard/payments/${p._id}`);
      expect(text(mail.raw, 'html')).toContain(`<html lang="${locale}">`);

      expect(notice).toMatchObject({ title: expected.title, body: expected.body, link: `/dashboard/payments/${p._id}` });
      expect(chat.shownText).toBe(`${expected.title}\n${expected.body}\n\n${expected.linkLabel}`);
      expect(chat.links).toEqual([`https://olympus.example/dashboard/payments/${p._id}`]);
    });
  }

  it('staff see the requester’s language on a ticket; their answer reaches the requester in it (mail and notice)', async () => {
    const support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
    const newTicket = { subject: 'Einzahlung fehlt', category: 'payments', priority: 'high', message: 'Wo ist mein Geld?' };
    const german = await accountIn('de');
    const english = await accountIn('en');
    const guest = await startGuest(t);
    const open = async (auth: { token: string; headers?: Record<string, string> }, path = '/api/tickets') => {
      const res = await call(t, 'POST', path, { ...auth, body: newTicket });
      expect(res.status).toBe(201);
      return res.json.ticket as { _id: string; number: number };
    };
    const staffView = async (id: string) => (await call(t, 'GET', `/api/staff/tickets/${id}`, { token: support.token })).json.ticket;

    const ticket = await open(german);
    expect((await staffView(ticket._id)).requester).toEqual({ type: 'user', name: german.username, locale: 'de' });
    expect((await staffView((await open(english))._id)).requester).toMatchObject({ locale: null });
    expect(
      (await staffView((await open({ token: guest.token, headers: guestHeaders(guest) }, '/api/tickets/guest'))._id)).requester,
    ).toEqual({
      type: 'guest',
      name: 'Guest',
      locale: null,
    });
    // The requester's own view does not carry it.
    expect((await call(t, 'GET', `/api/tickets/${ticket._id}`, { token: german.token })).json.ticket.requester).toEqual({
      type: 'user',
      name: german.username,
    });

    const answer = await call(t, 'POST', `/api/staff/tickets/${ticket._id}/messages`, {
      token: support.token,
      body: { message: 'Wir sehen nach.' },
    });
    expect(answer.status).toBeLessThan(300);
    const mail = await until('the reply mail', () =>
      smtp.to(`${german.username}@example.com`).find((m) => header(m.raw, 'Subject').startsWith('Neue Antwort')),
    );
    expect(header(mail.raw, 'Subject')).toBe(`Neue Antwort auf Ticket #${ticket.number}`);
    expect(text(mail.raw)).toContain(`Hallo ${german.username}, der Support hat auf dein Ticket „Einzahlung fehlt“ geantwortet.`);
    const notices = await until('the reply notice', async () => {
      const res = await call(t, 'GET', '/api/notifications', { token: german.token });
      return (res.json.notifications as Array<{ event: string; title: string; body: string }>).find((n) => n.event === 'ticket.reply');
    });
    expect(notices).toMatchObject({
      title: `Neue Antwort auf Ticket #${ticket.number}`,
      body: 'Der Support hat auf dein Ticket „Einzahlung fehlt“ geantwortet.',
    });
  });
});
