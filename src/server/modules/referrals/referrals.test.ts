import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REFERRAL_SETTINGS } from '#shared/schemas/referrals.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser, uniqueName } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { balance, control, deposit, history, postIpn, providerPayment } from '#server/test/payments.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { maskName, normaliseEmail } from './referral-rules.js';
import { referralRewards, referrals } from './referrals.tables.js';

type User = Awaited<ReturnType<typeof registerUser>>;
const DAY = 86_400_000;

/**
 * Referrals that pay (docs/product.md#referrals, docs/decisions/0332): the referral row at registration,
 * the referrer's held share and the welcome bonus when a top-up is final, the release by the (injected)
 * clock, clawbacks, caps, self-referral signals, the staff's decisions, the report and the settings.
 * Every person comes from their own address and browser unless a test says otherwise.
 */
describe.each(enginesFor('database'))('referrals on %s', (engine) => {
  let t: TestApp;
  let admin: User;
  let addressCounter = 10;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', TRUST_PROXY: '1' });
    admin = await registerUser(t, {}, device());
    await setRole(t.database.db, admin.userId, 'admin');
  });
  afterEach(async () => {
    t.app.referrals.now = () => new Date();
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A browser and an address of its own. */
  function device(ip?: string, ua?: string) {
    addressCounter++;
    return {
      'user-agent': ua ?? `TestBrowser/${addressCounter} (${uniqueName('ua')})`,
      'x-forwarded-for': ip ?? `203.0.113.${addressCounter % 250}`,
    };
  }

  async function codeOf(user: User): Promise<string> {
    const res = await call(t, 'GET', '/api/referrals/summary', { token: user.token });
    expect(res.status).toBe(200);
    return res.json.code as string;
  }

  async function pair(referredHeaders = device(), overrides: Record<string, unknown> = {}) {
    const referrer = await registerUser(t, {}, device());
    const referred = await registerUser(t, { referralCode: await codeOf(referrer), ...overrides }, referredHeaders);
    return { referrer, referred };
  }

  /** A final top-up of `amount` USD (97 % credited), and the referral job run. */
  async function topUp(user: User, amount = 100) {
    const p = await deposit(t, user.token, { crypto: 'btc', amount });
    await control(t, p.providerPaymentId, { status: 'finished' });
    await t.app.jobs.drain();
    return p;
  }

  async function referralOf(referredId: string) {
    const [row] = await t.database.db.select().from(referrals).where(eq(referrals.referredId, referredId));
    return row!;
  }

  async function rewardsOf(referredId: string) {
    const r = await referralOf(referredId);
    return t.database.db.select().from(referralRewards).where(eq(referralRewards.referralId, r.id)).orderBy(referralRewards.createdAt);
  }

  async function putSettings(changes: Partial<typeof DEFAULT_REFERRAL_SETTINGS>) {
    const res = await call(t, 'PUT', '/api/admin/referrals/settings', {
      token: admin.token,
      body: { ...DEFAULT_REFERRAL_SETTINGS, ...changes },
    });
    expect(res.status).toBe(200);
    return res.json;
  }

  it('pays end to end: join, final top-up, held share, release by the clock, spendable; and the welcome bonus at once', async () => {
    const { referrer, referred } = await pair();
    const joined = await referralOf(referred.userId);
    expect(joined.status).toBe('joined');
    // The referrer was told, with a masked name.
    const inbox = await call(t, 'GET', '/api/notifications', { token: referrer.token });
    expect(JSON.stringify(inbox.json)).toContain('referral.joined');
    expect(JSON.stringify(inbox.json)).toContain(maskName(referred.username));

    const p = await topUp(referred, 100);
    // 100 USD -> 97.00 credits; 10 % = 9.70 held for the referrer; 2.00 welcome bonus paid to the referred.
    expect(await balance(t, referred)).toBe(99);
    expect(await balance(t, referrer)).toBe(0);
    const rows = await rewardsOf(referred.userId);
    expect(rows.map((r) => [r.kind, r.amountCents, r.state])).toEqual([
      ['referrer_share', 970, 'held'],
      ['welcome_bonus', 200, 'paid'],
    ]);
    const share = rows.find((r) => r.kind === 'referrer_share')!;
    expect(share.paymentId).toBe(p._id);
    expect(share.releaseAt.getTime() - share.createdAt.getTime()).toBe(14 * DAY);

    const summary = await call(t, 'GET', '/api/referrals/summary', { token: referrer.token });
    expect(summary.json).toMatchObject({
      joined: 1,
      qualified: 1,
      heldCents: 970,
      paidCents: 0,
      nextReleaseAt: share.releaseAt.toISOString(),
    });
    expect(summary.json.linkPath).toBe(`/register?ref=${summary.json.code}`);
    const mine = await call(t, 'GET', '/api/referrals', { token: referrer.token });
    expect(mine.status).toBe(200);
    expect(mine.json.referrals).toHaveLength(1);
    expect(mine.json.referrals[0]).toMatchObject({ maskedName: maskName(referred.username), status: 'qualified', heldCents: 970 });
    const earned = await call(t, 'GET', '/api/notifications', { token: referrer.token });
    expect(JSON.stringify(earned.json)).toContain('referral.reward_earned');

    // Not spendable before its time: a spend of a cent is refused.
    await expect(
      postLedgerEntry(
        t.database.db,
        { userId: referrer.userId, amountCents: -1, kind: 'spend', reference: `ref-spend:${referrer.userId}`, description: 'x' },
        t.app.events,
      ),
    ).rejects.toThrow(/Not enough credits/);
    t.app.referrals.now = () => new Date(share.releaseAt.getTime() - 1000);
    expect(await t.app.referrals.releaseDue()).toBe(0);
    expect(await balance(t, referrer)).toBe(0);

    // Its time passed: released once, however often and however concurrently the release runs.
    t.app.referrals.now = () => new Date(share.releaseAt.getTime() + 1000);
    const runs = await Promise.all([t.app.referrals.releaseDue(), t.app.referrals.releaseDue(), t.app.referrals.releaseDue()]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await t.app.referrals.releaseDue()).toBe(0);
    expect(await balance(t, referrer)).toBe(9.7);
    const { entries } = await history(t, referrer.token);
    expect(entries.map((e) => [e.kind, e.amountCents, e.description])).toEqual([
      ['referral_reward', 970, `Referral reward: 10% of a top-up by ${maskName(referred.username)}`],
    ]);
    const referredHistory = await history(t, referred.token);
    expect(referredHistory.entries.map((e) => [e.kind, e.amountCents, e.description])).toEqual([
      ['welcome_bonus', 200, 'Welcome bonus for joining with a referral link'],
      ['payment', 9_700, 'Crypto top-up of 100.00 USD (BTC)'],
    ]);
    expect((await referralOf(referred.userId)).status).toBe('rewarded');
    // The receipt of each new kind answers.
    for (const entry of [entries[0]!, referredHistory.entries[0]!]) {
      const receipt = await call(t, 'GET', `/api/credits/ledger/${entry._id}/receipt`, {
        token: entry === entries[0] ? referrer.token : referred.token,
      });
      expect(receipt.status, JSON.stringify(receipt.json)).toBe(200);
      expect(receipt.json.receipt.entry.kind).toBe(entry.kind);
    }
  });

  it('releases every held reward now through the sandbox control (signed-in callers only)', async () => {
    const { referrer, referred } = await pair();
    await topUp(referred, 50);
    expect(await balance(t, referrer)).toBe(0);
    expect((await call(t, 'POST', '/api/sandbox/referrals/release-held')).status).toBe(401);
    const res = await call(t, 'POST', '/api/sandbox/referrals/release-held', { token: referrer.token });
    expect(res.status).toBe(200);
    expect(res.json.released).toBeGreaterThanOrEqual(1);
    // 50 USD -> 47.50 credits (the fee of a small top-up); 10 %: 4.75.
    expect(await balance(t, referrer)).toBe(4.75);
    expect((await call(t, 'GET', '/api/referrals/summary', { token: referrer.token })).json).toMatchObject({
      heldCents: 0,
      paidCents: 475,
      rewarded: 1,
    });
  });

  it('rewards once and gives the welcome bonus once when the same IPN arrives 30 times at once', async () => {
    const { referrer, referred } = await pair();
    const p = await deposit(t, referred.token, { crypto: 'btc', amount: 100 });
    await control(t, p.providerPaymentId, { status: 'finished', ipn: false });
    const body = await providerPayment(t, p.providerPaymentId);
    const results = await Promise.all(Array.from({ length: 30 }, () => postIpn(t, body)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    await t.app.jobs.drain();
    // The job run again changes nothing.
    await t.app.referrals.processPayment(p._id);
    await Promise.all([t.app.referrals.processPayment(p._id), t.app.referrals.processPayment(p._id)]);
    const rows = await rewardsOf(referred.userId);
    expect(rows.map((r) => [r.kind, r.amountCents])).toEqual([
      ['referrer_share', 970],
      ['welcome_bonus', 200],
    ]);
    expect(await balance(t, referred)).toBe(99);
    await t.app.referrals.releaseDue({ all: true });
    await t.app.referrals.releaseDue({ all: true });
    expect(await balance(t, referrer)).toBe(9.7);
    const counts = await t.database.pool.query(
      `SELECT kind, count(*)::int AS n FROM credit_ledger_entries WHERE user_id IN ($1, $2) GROUP BY kind ORDER BY kind`,
      [referrer.userId, referred.userId],
    );
    expect(counts.rows).toEqual([
      { kind: 'payment', n: 1 },
      { kind: 'referral_reward', n: 1 },
      { kind: 'welcome_bonus', n: 1 },
    ]);
  });
});

describe('referral rules', () => {
  it('masks names and normalises mailboxes', () => {
    expect(maskName('alice')).toBe('al•••e');
    expect(maskName('bob')).toBe('b•••');
    expect(maskName('abcd')).toBe('ab•••d');
    expect(normaliseEmail('A.Lice+promo@GoogleMail.com')).toBe('alice@gmail.com');
    expect(normaliseEmail('a.lice+x@example.com')).toBe('a.lice@example.com');
  });
});

export { sql };
