import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser, TEST_PASSWORD, uniqueName } from '#server/test/http.js';
import { linkToken, mailTo, waitForMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';

const PUBLIC_URL = 'https://olympus.example';

describe.each(enginesFor('logic'))('change of address and notifications (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { PUBLIC_URL, RATE_LIMITS: '0' });
  }, 180_000);
  afterAll(async () => t?.close());

  describe('change of address', () => {
    it('sends a link to the new address and a notice to the old; the address changes only when the link is opened', async () => {
      const account = await registerUser(t);
      const oldEmail = `${account.username}@example.com`;
      const newEmail = `${account.username}.new@example.org`;
      const res = await call(t, 'PUT', '/api/users/email', {
        token: account.token,
        body: { email: newEmail, currentPassword: TEST_PASSWORD },
      });
      expect(res.status).toBe(202);
      expect(res.json).toMatchObject({ success: true, pendingEmail: newEmail });
      expect((await call(t, 'GET', '/api/auth/me', { token: account.token })).json.user.email).toBe(oldEmail);

      const [notice] = await waitForMail(t, oldEmail, 'A change of your email address was requested');
      expect(notice!.text).toContain(newEmail);
      expect(notice!.text).not.toContain('token=');
      const [confirm] = await waitForMail(t, newEmail, 'Confirm your new email address');
      const token = linkToken(confirm!, '/confirm-email');

      const done = await call(t, 'POST', '/api/auth/confirm-email-change', { body: { token } });
      expect(done.status).toBe(200);
      expect(done.json.email).toBe(newEmail);
      // The account as /me reads it (the user cache may answer the old row for up to USER_CACHE_MS).
      await expect
        .poll(async () => (await call(t, 'GET', '/api/auth/me', { token: account.token })).json.user, { timeout: 5000 })
        .toMatchObject({ email: newEmail, emailVerified: true });
      await waitForMail(t, oldEmail, 'Your email address was changed');

      const again = await call(t, 'POST', '/api/auth/confirm-email-change', { body: { token } });
      expect(again.status).toBe(400);
      expect(again.json.code).toBe('TOKEN_USED');
      // The login works with the new address.
      expect(
        (await call(t, 'POST', '/api/login', { body: { username: newEmail, password: TEST_PASSWORD, turnstileToken: 'ok' } })).status,
      ).toBe(200);
    });

    it('needs the current password, a different address, and one no other account uses', async () => {
      const account = await registerUser(t);
      const other = await registerUser(t);
      const wrong = await call(t, 'PUT', '/api/users/email', {
        token: account.token,
        body: { email: 'fresh@example.org', currentPassword: 'not my password' },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.json.details.fields.currentPassword).toBe('Current password is incorrect');
      const same = await call(t, 'PUT', '/api/users/email', {
        token: account.token,
        body: { email: `${account.username.toUpperCase()}@example.com`, currentPassword: TEST_PASSWORD },
      });
      expect(same.status).toBe(400);
      const taken = await call(t, 'PUT', '/api/users/email', {
        token: account.token,
        body: { email: `${other.username}@EXAMPLE.com`, currentPassword: TEST_PASSWORD },
      });
      expect(taken.status).toBe(409);
      await t.app.jobs.drain(); // every mail job still due has run
      expect(await mailTo(t, 'fresh@example.org')).toEqual([]);
    });

    it('stays unique: an address taken after the request cannot be confirmed, and the link is not spent', async () => {
      const account = await registerUser(t);
      const target = `${uniqueName('race')}@example.org`;
      expect(
        (await call(t, 'PUT', '/api/users/email', { token: account.token, body: { email: target, currentPassword: TEST_PASSWORD } }))
          .status,
      ).toBe(202);
      const [confirm] = await waitForMail(t, target, 'Confirm your new email address');
      const token = linkToken(confirm!, '/confirm-email');
      const squatter = uniqueName('sq');
      await registerUser(t, { username: squatter, email: target });
      const refused = await call(t, 'POST', '/api/auth/confirm-email-change', { body: { token } });
      expect(refused.status).toBe(409);
      const row = await t.database.db.execute<{ used_at: Date | null }>(
        sql`SELECT used_at FROM account_tokens WHERE user_id = ${account.userId} AND purpose = 'change_email'`,
      );
      expect(row.rows[0]!.used_at).toBeNull();
    });

    it('a newer request voids the older link', async () => {
      const account = await registerUser(t);
      const first = `${uniqueName('first')}@example.org`;
      const second = `${uniqueName('second')}@example.org`;
      await call(t, 'PUT', '/api/users/email', { token: account.token, body: { email: first, currentPassword: TEST_PASSWORD } });
      const older = linkToken((await waitForMail(t, first, 'Confirm your new email address'))[0]!, '/confirm-email');
      await call(t, 'PUT', '/api/users/email', { token: account.token, body: { email: second, currentPassword: TEST_PASSWORD } });
      await waitForMail(t, second, 'Confirm your new email address');
      const stale = await call(t, 'POST', '/api/auth/confirm-email-change', { body: { token: older } });
      expect(stale.status).toBe(400);
      expect(stale.json.code).toBe('TOKEN_SUPERSEDED');
    });
  });

  describe('notifications', () => {
    async function staffReply(ticketOwner: { token: string }, message: string) {
      const created = await call(t, 'POST', '/api/tickets', {
        token: ticketOwner.token,
        body: { subject: 'Help with <img src=x onerror=alert(1)>', message: 'Please help me.', category: 'general' },
      });
      expect(created.status).toBe(201);
      const staff = await registerUser(t);
      await setRole(t.database.db, staff.userId, 'support');
      const ticketId = created.json.ticket._id as string;
      const replied = await call(t, 'POST', `/api/staff/tickets/${ticketId}/messages`, { token: staff.token, body: { message } });
      expect(replied.status).toBeLessThan(300);
      return { ticketId, staff };
    }

    it('a staff reply mails the owner once, escaped, with a List-Unsubscribe header that works without signing in', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      const { ticketId, staff } = await staffReply(account, 'Fixed. <script>alert("x")</script> & done');
      const [mail] = await waitForMail(t, email, /^New reply on ticket #\d+$/);
      expect(mail!.html).not.toMatch(/<script>|<img src=x/);
      expect(mail!.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; done');
      expect(mail!.text).toContain('> Fixed. <script>alert("x")</script> & done');
      expect(mail!.text).toContain(`${PUBLIC_URL}/dashboard/support/${ticketId}`);

      const [stored] = (
        await t.database.db.execute<{ headers: Record<string, string> }>(
          sql`SELECT headers FROM mail_sandbox_messages WHERE id = ${mail!.id}`,
        )
      ).rows;
      expect(stored!.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      const listUrl = /^<(.+)>$/.exec(stored!.headers['List-Unsubscribe']!)![1]!;
      expect(listUrl.startsWith(`${PUBLIC_URL}/api/mail/unsubscribe?token=`)).toBe(true);

      // RFC 8058 one-click: a form POST to that URL, no session.
      const oneClick = await fetch(`${t.url}${new URL(listUrl).pathname}${new URL(listUrl).search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.status).toBe(200);
      expect((await call(t, 'GET', '/api/users/mail-preferences', { token: account.token })).json).toEqual({
        paymentCredited: true,
        ticketReply: false,
        orderUpdates: true,
      });

      await call(t, 'POST', `/api/staff/tickets/${ticketId}/messages`, { token: staff.token, body: { message: 'Another note.' } });
      await t.app.jobs.drain(); // every mail job still due has run
      expect((await mailTo(t, email)).filter((m) => m.subject.startsWith('New reply'))).toHaveLength(1);
    });

    it('the unsubscribe link in the text part works too; a forged or altered token is refused', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      await staffReply(account, 'Answer.');
      const [mail] = await waitForMail(t, email, /^New reply on ticket #\d+$/);
      const token = linkToken(mail!, '/unsubscribe');
      const [body, mac] = token.split('.');
      // The same signature on another user's id.
      const other = await registerUser(t);
      const forgedBody = Buffer.from(`${other.userId}.ticket_reply`).toString('base64url');
      for (const bad of [`${forgedBody}.${mac}`, `${body}.${mac!.slice(0, -2)}xx`, 'abc', `${body}`, '..', 'x'.repeat(300)]) {
        const res = await call(t, 'POST', '/api/mail/unsubscribe', { body: { token: bad } });
        expect(res.status, bad).toBe(400);
      }
      expect((await call(t, 'GET', '/api/users/mail-preferences', { token: other.token })).json.ticketReply).toBe(true);
      const ok = await call(t, 'POST', '/api/mail/unsubscribe', { body: { token } });
      expect(ok.status).toBe(200);
      expect(ok.json.kind).toBe('ticket_reply');
    });

    it('settings turn optional notifications off and on; security mails cannot be turned off', async () => {
      const account = await registerUser(t);
      const email = `${account.username}@example.com`;
      const off = await call(t, 'PUT', '/api/users/mail-preferences', {
        token: account.token,
        body: { ticketReply: false, paymentCredited: false },
      });
      expect(off.json).toEqual({ paymentCredited: false, ticketReply: false, orderUpdates: true });
      expect((await call(t, 'PUT', '/api/users/mail-preferences', { token: account.token, body: { passwordChanged: false } })).status).toBe(
        200,
      );
      await staffReply(account, 'You will not hear of this.');
      const changed = await call(t, 'POST', '/api/users/change-password', {
        token: account.token,
        body: { currentPassword: TEST_PASSWORD, newPassword: 'another long passphrase' },
      });
      expect(changed.status).toBe(200);
      const [notice] = await waitForMail(t, email, 'Your password was changed');
      expect(notice!.text).toMatch(/From IP address: \S+/);
      await t.app.jobs.drain(); // every mail job still due has run
      expect((await mailTo(t, email)).filter((m) => m.subject.startsWith('New reply'))).toHaveLength(0);
      expect((await mailTo(t, email)).filter((m) => m.subject === 'Your password was changed')).toHaveLength(1);
    });

    it('a sign-in from a new device is reported once; a known device and the first device are not', async () => {
      const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
      const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
      const account = await registerUser(t, {}, { 'user-agent': firefox });
      const email = `${account.username}@example.com`;
      const login = (ua: string) =>
        call(t, 'POST', '/api/login', {
          body: { username: account.username, password: TEST_PASSWORD, turnstileToken: 'ok' },
          headers: { 'user-agent': ua },
        });
      expect((await login(firefox)).status).toBe(200);
      await t.app.jobs.drain(); // every mail job still due has run
      expect((await mailTo(t, email)).filter((m) => m.subject === 'New sign-in to your account')).toHaveLength(0);
      expect((await login(chrome)).status).toBe(200);
      const [notice] = await waitForMail(t, email, 'New sign-in to your account');
      expect(notice!.text).toContain('Browser: Chrome on Windows');
      expect(notice!.text).toContain(`${PUBLIC_URL}/forgot-password`);
      expect((await login(chrome)).status).toBe(200);
      await t.app.jobs.drain(); // every mail job still due has run
      expect((await mailTo(t, email)).filter((m) => m.subject === 'New sign-in to your account')).toHaveLength(1);
    });
  });
});
