import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTO_CLOSE_JOB } from '#server/modules/support/rules/support-rules.service.js';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser, TEST_PASSWORD } from '#server/test/http.js';
import { linkToken, waitForMail } from '#server/test/mailbox.js';
import { control, deposit, postIpn, providerPayment } from '#server/test/payments.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

/**
 * The rest of what the server writes in the reader's language (docs/decisions/0328): the two-factor
 * notices (mail and in-app detail), the account-closure mails (closing, held, restored), composed from
 * data in the recipient's language, and the status subscription mails, in the language the address
 * subscribed in. English stays as it was (each module's own tests read it).
 */

type User = Awaited<ReturnType<typeof registerUser>>;

const codeAt = (secret: string, offset = 0) =>
  new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

const longDate = (locale: string, at: Date) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);

describe.each(enginesFor('database'))('more server messages in the reader’s language on %s', { timeout: 120_000 }, (engine) => {
  let t: TestApp;
  let staff: User;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', PUBLIC_URL: 'https://olympus.example' });
    staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
  }, 300_000);
  afterAll(async () => {
    await t?.close();
  });

  async function userIn(locale: 'es' | 'ru' | 'de'): Promise<User> {
    const user = await registerUser(t);
    expect((await call(t, 'PUT', '/api/users/locale', { token: user.token, body: { locale } })).status).toBe(200);
    return user;
  }

  /** The in-app notices of one event, once the job queue has run everything due (the two-factor notice is emitted after its mail is queued). */
  async function noticesOf(user: User, event: string): Promise<Array<{ title: string; body: string }>> {
    await t.app.jobs.drain();
    const res = await call(t, 'GET', '/api/notifications?limit=100', { token: user.token });
    return (res.json.notifications as Array<{ event: string; title: string; body: string }>).filter((n) => n.event === event);
  }

  it('mails the two-factor notices and writes their in-app detail in the account’s language', async () => {
    const u = await userIn('de');
    const email = `${u.username}@example.com`;
    const setup = await call(t, 'POST', '/api/auth/2fa/totp/setup', { token: u.token, body: { currentPassword: TEST_PASSWORD } });
    const secret = setup.json.secret as string;
    const enable = await call(t, 'POST', '/api/auth/2fa/totp/enable', { token: u.token, body: { code: codeAt(secret, -1) } });
    expect(enable.status).toBe(200);
    const [on] = await waitForMail(t, email, 'Die Zwei-Faktor-Anmeldung wurde eingeschaltet', 1, 60_000);
    expect(on!.text).toContain(`Hallo ${u.username}, für dein Olympus-Konto wurde gerade die Zwei-Faktor-Anmeldung eingeschaltet.`);
    expect(on!.text).toContain('Sicherheitseinstellungen öffnen');
    expect(on!.text).not.toContain('Two-factor');

    const login = await call(t, 'POST', '/api/login', { body: { username: u.username, password: TEST_PASSWORD, turnstileToken: 'ok' } });
    const recoveryCode = (enable.json.recoveryCodes as string[])[0];
    const used = await call(t, 'POST', '/api/login/2fa', { body: { challenge: login.json.challenge, recoveryCode } });
    expect(used.status).toBe(200);
    const [code] = await waitForMail(t, email, 'Zum Anmelden wurde ein Wiederherstellungscode verwendet', 1, 60_000);
    expect(code!.text).toContain('Verbleibende Wiederherstellungscodes: 9');

    const notices = await noticesOf(u, 'security.two_factor_changed');
    expect(notices.map((n) => n.body).sort()).toEqual([
      'Wiederherstellungscode verwendet (Verbleibende Wiederherstellungscodes: 9). Wenn du das nicht warst, ändere dein Passwort.',
      'Zwei-Faktor-Anmeldung eingeschaltet. Wenn du das nicht warst, ändere dein Passwort.',
    ]);
  });

  it('mails the closing and restored notices of an account in its language, amounts and dates written its way', async () => {
    const u = await userIn('es');
    const email = `${u.username}@example.com`;
    const closed = await call(t, 'DELETE', '/api/users/me', {
      token: u.token,
      body: { password: TEST_PASSWORD, acknowledgeForfeitedCents: 0 },
    });
    expect(closed.status).toBe(202);
    const erasureAt = new Date(closed.json.erasureAt as string);
    const [closing] = await waitForMail(t, email, 'Tu cuenta de Olympus se está cerrando');
    expect(closing!.text).toContain(`Se borra el: ${longDate('es', erasureAt)} (dentro de 14 días)`);
    expect(closing!.text).toContain('Créditos que se pierden entonces: 0,00 créditos');
    expect(closing!.text).toContain('«Restaurar mi cuenta»');

    const restored = await call(t, 'POST', '/api/auth/restore-account', { body: { username: u.username, password: TEST_PASSWORD } });
    expect(restored.status).toBe(200);
    const [back] = await waitForMail(t, email, 'Tu cuenta de Olympus se ha restaurado');
    expect(back!.text).toContain('Lo que ha vuelto: tu saldo de 0,00 créditos; tu inicio de sesión, el uso de la API y tus pedidos.');
    expect(back!.text).toContain('Desde la dirección IP');
  });

  it('tells a closing account of a late payment in its language', async () => {
    const u = await userIn('ru');
    const p = await deposit(t, u.token, { crypto: 'btc', amount: 100 });
    expect(
      (await call(t, 'DELETE', '/api/users/me', { token: u.token, body: { password: TEST_PASSWORD, acknowledgeForfeitedCents: 0 } }))
        .status,
    ).toBe(202);
    await control(t, p.providerPaymentId, { status: 'finished', ipn: false });
    expect((await postIpn(t, await providerPayment(t, p.providerPaymentId))).status).toBe(200);
    const [held] = await waitForMail(t, `${u.username}@example.com`, 'На закрывающийся аккаунт Olympus поступил платёж');
    expect(held!.text).toContain('Платёж: 100,00 USD в BTC');
    expect(held!.text).toContain('Зачислено кредитов: 97,00 кредита');
    expect(held!.text).toContain('Баланс сейчас: 97,00 кредита');
  });

  it('asks for a rating of an auto-closed ticket in the requester’s language', async () => {
    const u = await userIn('es');
    const opened = await call(t, 'POST', '/api/tickets', {
      token: u.token,
      body: { subject: 'Depósito perdido', category: 'payments', priority: 'normal', message: '¿Dónde está?' },
    });
    expect(opened.status).toBe(201);
    const id = opened.json.ticket._id as string;
    expect((await call(t, 'PUT', `/api/staff/tickets/${id}`, { token: staff.token, body: { status: 'resolved' } })).status).toBe(200);
    // Resolved long ago, with nothing written since.
    await t.database.pool.query("UPDATE ticket_messages SET created_at = now() - interval '40 days' WHERE ticket_id = $1", [id]);
    await t.database.pool.query("UPDATE tickets SET closed_at = now() - interval '30 days' WHERE id = $1", [id]);
    await t.app.jobs.send(AUTO_CLOSE_JOB, {});
    const [request] = await noticesOf(u, 'ticket.rating_request');
    const number = (await call(t, 'GET', `/api/staff/tickets/${id}`, { token: staff.token })).json.ticket.number as number;
    expect(request).toMatchObject({
      title: `¿Qué tal lo hicimos con el ticket n.º ${number}?`,
      body: 'Tu ticket «Depósito perdido» está cerrado. Valora nuestra respuesta: solo te llevará unos segundos.',
    });
  });

  it('mails a status subscription’s confirmation and notices in the language it subscribed in; none sent is English', async () => {
    const german = `status-de-${engine}-${Date.now().toString(36)}@example.com`;
    const plain = `status-en-${engine}-${Date.now().toString(36)}@example.com`;
    for (const [email, locale] of [
      [german, 'de'],
      [plain, undefined],
    ] as const) {
      const res = await call(t, 'POST', '/api/status/subscriptions', { body: { email, ...(locale ? { locale } : {}) } });
      expect(res.status).toBe(202);
    }
    expect((await call(t, 'POST', '/api/status/subscriptions', { body: { email: german, locale: 'xx' } })).status).toBe(400);
    const [confirmDe] = await waitForMail(t, german, 'Bestätige dein Abo der Olympus-Statusmeldungen');
    expect(confirmDe!.text).toContain('Der Link funktioniert 7 Tage lang');
    const [confirmEn] = await waitForMail(t, plain, 'Confirm your Olympus status subscription');
    for (const [mail, path] of [
      [confirmDe!, '/status/confirm'],
      [confirmEn!, '/status/confirm'],
    ] as const) {
      expect((await call(t, 'POST', '/api/status/subscriptions/confirm', { body: { token: linkToken(mail, path) } })).status).toBe(200);
    }

    const title = `Slow withdrawals ${engine}`;
    const incident = await call(t, 'POST', '/api/status/incidents', {
      token: staff.token,
      body: { title, impact: 'major', status: 'investigating', message: 'We are looking into it.' },
    });
    expect(incident.status).toBe(201);
    const [de] = await waitForMail(t, german, `Störung: ${title}`);
    expect(de!.text).toContain('Auswirkung: schwer');
    expect(de!.text).toContain('Status: wird untersucht');
    expect(de!.text).toContain('We are looking into it.');
    expect(de!.text).toContain('Statusseite öffnen');
    const [en] = await waitForMail(t, plain, `Incident: ${title}`);
    expect(en!.text).toContain('Impact: major');
    expect(en!.text).toContain('Status: investigating');

    const id = incident.json.incident._id as string;
    expect((await call(t, 'PUT', `/api/status/incidents/${id}`, { token: staff.token, body: { status: 'resolved' } })).status).toBe(200);
    const [resolved] = await waitForMail(t, german, `Behoben: ${title}`);
    expect(resolved!.text).toContain('Der Status ist jetzt: behoben.');
    const [resolvedEn] = await waitForMail(t, plain, `Resolved: ${title}`);
    expect(resolvedEn!.text).toContain('Status changed to resolved.');
  });
});
