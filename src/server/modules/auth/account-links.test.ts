import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser, TEST_PASSWORD, uniqueName } from '#server/test/http.js';
import { linkToken, waitForMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

/**
 * One-time account links are bound to the account they were issued for (decision 0200): a password
 * reset, a password change, a confirmed change of address and disabling the account void every other
 * outstanding link, and a reset link works only while the account still uses the address it went to.
 * Everything goes through the HTTP API and the links are read from the mail sandbox, as a person would.
 */

const VOIDED_MESSAGE = 'This link is no longer valid because your account changed after it was sent. Ask for a new one.';

type Account = Awaited<ReturnType<typeof registerUser>> & { email: string; password: string };
type LinkKind = 'verify' | 'reset' | 'change_email';
type StateChange = 'password reset' | 'password change' | 'confirmed email change' | 'account disabled';

describe.each(enginesFor('logic'))('one-time links bound to the account (%s)', (engine) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
  }, 180_000);
  afterAll(async () => t?.close());

  // ---- the mailbox, as a person reads it --------------------------------------------------------------

  /** How many mails of a subject each address has received so far, so the next wait is for a new one. */
  const seen = new Map<string, number>();
  async function nextLink(to: string, subject: string, path: string): Promise<string> {
    const key = `${to.toLowerCase()}|${subject}`;
    const count = (seen.get(key) ?? 0) + 1;
    const mails = await waitForMail(t, to, subject, count);
    seen.set(key, mails.length);
    return linkToken(mails[0]!, path); // newest first
  }

  async function newAccount(): Promise<Account> {
    const username = uniqueName('link');
    const account = await registerUser(t, { username });
    return { ...account, email: `${username}@example.com`, password: TEST_PASSWORD };
  }

  async function login(username: string, password: string) {
    return call(t, 'POST', '/api/login', { body: { username, password, turnstileToken: 'ok' } });
  }

  async function signIn(account: Account): Promise<string> {
    const res = await login(account.username, account.password);
    expect(res.status).toBe(200);
    return res.json.token as string;
  }

  // ---- issuing links -------------------------------------------------------------------------------

  async function verifyLink(account: Account): Promise<string> {
    return nextLink(account.email, 'Confirm your email', '/verify-email');
  }

  async function resetLink(email: string): Promise<string> {
    expect((await call(t, 'POST', '/api/auth/forgot-password', { body: { email } })).status).toBe(202);
    return nextLink(email, 'Reset your password', '/reset-password');
  }

  async function changeEmailLink(account: Account, token: string, password: string, newEmail: string): Promise<string> {
    const res = await call(t, 'PUT', '/api/users/email', { token, body: { email: newEmail, currentPassword: password } });
    expect(res.status).toBe(202);
    return nextLink(newEmail, 'Confirm your new email address', '/confirm-email');
  }

  // ---- opening links -------------------------------------------------------------------------------

  function openVerify(token: string) {
    return call(t, 'POST', '/api/auth/verify-email', { body: { token } });
  }
  function openReset(token: string, password: string) {
    return call(t, 'POST', '/api/auth/reset-password', { body: { token, password } });
  }
  function openChangeEmail(token: string) {
    return call(t, 'POST', '/api/auth/confirm-email-change', { body: { token } });
  }

  /** What a link could change: compared before and after a refused link. */
  async function accountState(userId: string) {
    const rows = await t.database.db.execute<Record<string, unknown>>(
      sql`SELECT email, password_hash, email_verified_at, password_changed_at, disabled_at, security_stamp FROM users WHERE id = ${userId}`,
    );
    return rows.rows[0];
  }

  function expectVoided(res: { status: number; json: { code?: string; error?: string } }) {
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'TOKEN_VOIDED', error: VOIDED_MESSAGE });
  }

  // ---- the two attacks --------------------------------------------------------------------------------

  describe('attacks that handed the account to someone else', () => {
    it('a reset link mailed to the old address no longer works once the owner moved the account to a new address', async () => {
      // The attacker controls the owner's old mailbox.
      const owner = await newAccount();
      const oldMailbox = owner.email;
      // 1. A reset link goes to the old address (anyone may ask for one); the attacker reads it there.
      const stolenReset = await resetLink(oldMailbox);
      // 2. The owner moves the account to a new address and confirms it with the link sent there.
      const newMailbox = `${uniqueName('moved')}@example.org`;
      const confirm = await changeEmailLink(owner, owner.token, owner.password, newMailbox);
      const moved = await openChangeEmail(confirm);
      expect(moved.status).toBe(200);
      expect(moved.json.email).toBe(newMailbox);
      // 3. The attacker opens the old reset link within its hour: refused.
      const attackerPassword = 'the attacker owns this now 1';
      expectVoided(await openReset(stolenReset, attackerPassword));
      // 4. The attacker cannot sign in with the password they tried to set; the owner still can.
      expect((await login(owner.username, attackerPassword)).status).toBe(401);
      const ownerLogin = await login(owner.username, owner.password);
      expect(ownerLogin.status).toBe(200);
      expect(ownerLogin.json.user.email).toBe(newMailbox);
      // The owner's session from before is untouched.
      expect((await call(t, 'GET', '/api/auth/me', { token: owner.token })).status).toBe(200);
    });

    for (const recovery of ['password reset', 'password change'] as const) {
      it(`a pending change of address requested with a stolen session no longer works after the owner's ${recovery}`, async () => {
        const owner = await newAccount();
        // 1. The attacker has the password and a session of their own.
        const attackerSession = await signIn(owner);
        // 2. The attacker asks to move the account to their own address; the link reaches their mailbox.
        const attackerMailbox = `${uniqueName('attacker')}@evil.example`;
        const stolenChange = await changeEmailLink(owner, attackerSession, owner.password, attackerMailbox);
        // 3. The owner notices and recovers the account, which ends the attacker's sessions.
        const ownerPassword = 'the owner took it back 2';
        if (recovery === 'password reset') {
          expect((await openReset(await resetLink(owner.email), ownerPassword)).status).toBe(200);
        } else {
          const changed = await call(t, 'POST', '/api/users/change-password', {
            token: owner.token,
            body: { currentPassword: owner.password, newPassword: ownerPassword },
          });
          expect(changed.status).toBe(200);
        }
        expect((await call(t, 'GET', '/api/auth/me', { token: attackerSession })).status).toBe(401);
        // 4. The attacker opens the still-unexpired change-of-address link: refused.
        expectVoided(await openChangeEmail(stolenChange));
        // 5. The address is still the owner's: the owner signs in and sees it; a reset for the attacker's address sends nothing.
        const ownerLogin = await login(owner.username, ownerPassword);
        expect(ownerLogin.status).toBe(200);
        expect(ownerLogin.json.user.email).toBe(owner.email);
        expect((await login(attackerMailbox, ownerPassword)).status).toBe(401);
      });
    }
  });

  // ---- every link kind against every state change -------------------------------------------------------

  describe('every change to the account voids the other outstanding links', () => {
    /** Makes the change through the API; answers the account as it now is (its password, a working session). */
    async function makeChange(change: StateChange, account: Account): Promise<Account> {
      switch (change) {
        case 'password reset': {
          const password = 'changed by a reset link 3';
          expect((await openReset(await resetLink(account.email), password)).status).toBe(200);
          return { ...account, password, token: '' };
        }
        case 'password change': {
          const password = 'changed in the settings 4';
          const res = await call(t, 'POST', '/api/users/change-password', {
            token: account.token,
            body: { currentPassword: account.password, newPassword: password },
          });
          expect(res.status).toBe(200);
          return { ...account, password };
        }
        case 'confirmed email change': {
          const email = `${uniqueName('changed')}@example.org`;
          expect((await openChangeEmail(await changeEmailLink(account, account.token, account.password, email))).status).toBe(200);
          return { ...account, email };
        }
        case 'account disabled': {
          const res = await call(t, 'PUT', `/api/admin/users/${account.userId}/disabled`, {
            token: admin.token,
            body: { disabled: true, reason: 'suspected takeover' },
          });
          expect(res.status).toBe(200);
          return account;
        }
      }
    }

    async function issue(kind: LinkKind, account: Account): Promise<string> {
      switch (kind) {
        case 'verify':
          return verifyLink(account);
        case 'reset':
          return resetLink(account.email);
        case 'change_email':
          return changeEmailLink(account, account.token, account.password, `${uniqueName('pending')}@example.org`);
      }
    }

    function open(kind: LinkKind, token: string) {
      if (kind === 'verify') return openVerify(token);
      if (kind === 'reset') return openReset(token, 'set through an old link 5');
      return openChangeEmail(token);
    }

    const CHANGE_TITLES: Record<StateChange, string> = {
      'password reset': 'a password reset',
      'password change': 'a password change',
      'confirmed email change': 'a confirmed change of address',
      'account disabled': 'the account was disabled',
    };
    const kinds: LinkKind[] = ['verify', 'reset', 'change_email'];
    const changes: StateChange[] = ['password reset', 'password change', 'confirmed email change', 'account disabled'];
    for (const kind of kinds) {
      for (const change of changes) {
        // A newer link of the same kind already replaces the older one (TOKEN_SUPERSEDED): a reset needs a
        // new reset link, and a change of address a new change link, so those two pairs answer that way.
        const superseded =
          (kind === 'reset' && change === 'password reset') || (kind === 'change_email' && change === 'confirmed email change');
        it(`a ${kind} link issued before ${CHANGE_TITLES[change]} is refused, and the account stays as it is`, async () => {
          const account = await newAccount();
          const link = await issue(kind, account);
          const after = await makeChange(change, account);
          const before = await accountState(account.userId);
          const res = await open(kind, link);
          if (superseded) {
            expect(res.status).toBe(400);
            expect(res.json.code).toBe('TOKEN_SUPERSEDED');
          } else {
            expectVoided(res);
          }
          expect(await accountState(account.userId)).toEqual(before);
          if (change !== 'account disabled') {
            // The account still signs in with the password and address it has now.
            const signedIn = await login(after.username, after.password);
            expect(signedIn.status).toBe(200);
            expect(signedIn.json.user.email).toBe(after.email);
          }
        });
      }
    }

    it("a staff reset of two-factor voids the account's pending change of address", async () => {
      const account = await newAccount();
      const link = await issue('change_email', account);
      const reset = await call(t, 'POST', `/api/admin/users/${account.userId}/two-factor/reset`, {
        token: admin.token,
        body: { reason: 'lost the phone, identity checked' },
      });
      expect(reset.status).toBe(200);
      const before = await accountState(account.userId);
      expectVoided(await openChangeEmail(link));
      expect(await accountState(account.userId)).toEqual(before);
    });

    it('re-enabling a disabled account does not bring its old links back', async () => {
      const account = await newAccount();
      const link = await resetLink(account.email);
      await makeChange('account disabled', account);
      const enabled = await call(t, 'PUT', `/api/admin/users/${account.userId}/disabled`, {
        token: admin.token,
        body: { disabled: false, reason: 'cleared' },
      });
      expect(enabled.status).toBe(200);
      expectVoided(await openReset(link, 'set through an old link 6'));
      expect((await login(account.username, account.password)).status).toBe(200);
    });
  });

  // ---- the address a reset link went to ----------------------------------------------------------------

  describe('a reset link needs the address it was sent to', () => {
    it('is refused once the account uses another address, even if nothing else about the account changed', async () => {
      const account = await newAccount();
      const link = await resetLink(account.email);
      // The address changes without the stamp moving (as any path that forgot to raise it would): the
      // address check alone still refuses the link.
      const moved = `${uniqueName('elsewhere')}@example.org`;
      await t.database.db.execute(sql`UPDATE users SET email = ${moved} WHERE id = ${account.userId}`);
      const before = await accountState(account.userId);
      expectVoided(await openReset(link, 'set through an old link 7'));
      expect(await accountState(account.userId)).toEqual(before);
    });

    it('works for an address that differs only in letter case', async () => {
      const account = await newAccount();
      const link = await resetLink(account.email.toUpperCase());
      expect((await openReset(link, 'upper case is the same 8')).status).toBe(200);
    });
  });

  // ---- links still work when nothing changed -----------------------------------------------------------

  describe('a link works while the account is as it was', () => {
    it('verification, after a sign-in elsewhere and an unconfirmed request to change the address', async () => {
      const account = await newAccount();
      const link = await verifyLink(account);
      await signIn(account);
      await changeEmailLink(account, account.token, account.password, `${uniqueName('unconfirmed')}@example.org`);
      const res = await openVerify(link);
      expect(res.status).toBe(200);
      expect((await call(t, 'GET', '/api/auth/me', { token: account.token })).json.user.emailVerified).toBe(true);
    });

    it('password reset, after the address was confirmed with the verification link', async () => {
      const account = await newAccount();
      const reset = await resetLink(account.email);
      expect((await openVerify(await verifyLink(account))).status).toBe(200);
      const password = 'a fresh password that works 9';
      expect((await openReset(reset, password)).status).toBe(200);
      expect((await login(account.username, password)).status).toBe(200);
    });

    it('change of address, after a sign-in elsewhere and a reset link that was asked for but not used', async () => {
      const account = await newAccount();
      const email = `${uniqueName('target')}@example.org`;
      const link = await changeEmailLink(account, account.token, account.password, email);
      await signIn(account);
      await resetLink(account.email);
      const res = await openChangeEmail(link);
      expect(res.status).toBe(200);
      expect(res.json.email).toBe(email);
    });
  });
});
