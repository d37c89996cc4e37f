import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REFERRAL_SETTINGS } from '#shared/schemas/referrals.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser, uniqueName } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { balance, control, deposit, history, postIpn, providerPayment } from '#server/test/payments.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { maskName, normaliseEmail, refusalReasonOf } from './referral-rules.js';
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
  it('claws back a refunded top-up: the held share is clawed back with nothing on the ledger, the welcome bonus taken back', async () => {
    const { referrer, referred } = await pair();
    const p = await topUp(referred, 100);
    await control(t, p.providerPaymentId, { status: 'refunded' });
    await t.app.jobs.drain();
    const rows = await rewardsOf(referred.userId);
    expect(rows.map((r) => [r.kind, r.state, r.takenBackCents, r.owedCents])).toEqual([
      ['referrer_share', 'clawed_back', 0, 0],
      ['welcome_bonus', 'clawed_back', 200, 0],
    ]);
    expect(await balance(t, referrer)).toBe(0);
    expect(await balance(t, referred)).toBe(0);
    const { entries } = await history(t, referred.token);
    expect(entries[0]).toMatchObject({
      kind: 'referral_clawback',
      amountCents: -200,
      description: 'Welcome bonus taken back: the top-up was reversed',
    });
    // Nothing is released later.
    await t.app.referrals.releaseDue({ all: true });
    expect(await balance(t, referrer)).toBe(0);
    const summary = await call(t, 'GET', '/api/referrals/summary', { token: referrer.token });
    expect(summary.json).toMatchObject({ heldCents: 0, paidCents: 0, clawedBackCents: 970 });
  });

  it('takes a paid share back with a clawback entry, and when it was spent makes it owed, never a negative balance', async () => {
    // Paid and still there: taken back from the balance.
    const a = await pair();
    const pa = await topUp(a.referred, 100);
    await t.app.referrals.releaseDue({ all: true });
    expect(await balance(t, a.referrer)).toBe(9.7);
    await control(t, pa.providerPaymentId, { status: 'refunded' });
    await t.app.jobs.drain();
    expect(await balance(t, a.referrer)).toBe(0);
    const { entries } = await history(t, a.referrer.token);
    expect(entries[0]).toMatchObject({
      kind: 'referral_clawback',
      amountCents: -970,
      description: `Referral reward taken back: the top-up by ${maskName(a.referred.username)} was reversed`,
    });

    // Paid and spent: owed, settled by the next credit first.
    const b = await pair();
    const pb = await topUp(b.referred, 100);
    await t.app.referrals.releaseDue({ all: true });
    await postLedgerEntry(
      t.database.db,
      { userId: b.referrer.userId, amountCents: -900, kind: 'spend', reference: `ref-spent:${b.referrer.userId}`, description: 'Spent' },
      t.app.events,
    );
    // Two reversals racing (the IPN's job and a repeat) take it back once.
    await control(t, pb.providerPaymentId, { status: 'refunded' });
    await Promise.all([t.app.jobs.drain(), t.app.referrals.processPayment(pb._id), t.app.referrals.processPayment(pb._id)]);
    expect(await balance(t, b.referrer)).toBe(0);
    const [share] = (await rewardsOf(b.referred.userId)).filter((r) => r.kind === 'referrer_share');
    expect(share).toMatchObject({ state: 'clawed_back', takenBackCents: 70, owedCents: 900 });
    const owed = await call(t, 'GET', '/api/credits/outstanding', { token: b.referrer.token });
    expect(owed.json.outstandingCents).toBe(900);
    const negative = await t.database.pool.query(`SELECT count(*)::int AS n FROM users WHERE credits_cents < 0`);
    expect(negative.rows[0].n).toBe(0);
  });

  it('refuses a self-referral by each signal, with its reason and the signals stored; no reward, no welcome bonus', async () => {
    const cases: { reason: string; referrer: Record<string, string>; referred: Record<string, string>; emails?: [string, string] }[] = [];
    const n = uniqueName('mail');
    cases.push({
      reason: 'same_email',
      referrer: device(),
      referred: device(),
      emails: [`jo.hn.${n}@gmail.com`, `john${n}+ref@googlemail.com`],
    });
    const ua = `Shared/1.0 (${uniqueName('ua')})`;
    cases.push({ reason: 'same_device', referrer: device(undefined, ua), referred: device(undefined, ua) });
    cases.push({ reason: 'same_address', referrer: device('198.51.100.77'), referred: device('198.51.100.77') });
    cases.push({ reason: 'same_payout_address', referrer: device(), referred: device() });
    for (const c of cases) {
      const referrer = await registerUser(t, c.emails ? { email: c.emails[0] } : {}, c.referrer);
      const referred = await registerUser(
        t,
        { referralCode: await codeOf(referrer), ...(c.emails ? { email: c.emails[1] } : {}) },
        c.referred,
      );
      if (c.reason === 'same_payout_address') {
        const address = `bc1q${uniqueName('addr').toLowerCase()}`;
        for (const [i, who] of [referrer, referred].entries()) {
          await t.database.pool.query(
            `INSERT INTO exchanges (user_id, provider_exchange_id, from_currency, to_currency, amount_from, payin_address, payout_address, usd_value_cents, reward_cents, reward_mode)
             VALUES ($1, $2, 'eth', 'btc', '1', 'payin', $3, 100, 0, 'direct')`,
            [who.userId, uniqueName(`x${i}`), address],
          );
        }
      }
      await topUp(referred, 100);
      const r = await referralOf(referred.userId);
      expect({ reason: r.refusalReason, status: r.status }).toEqual({ reason: c.reason, status: 'refused' });
      expect(await rewardsOf(referred.userId)).toEqual([]);
      expect(await balance(t, referred)).toBe(97);
      const listed = await call(t, 'GET', `/api/admin/referrals?q=${referred.username}`, { token: admin.token });
      expect(listed.status).toBe(200);
      const signals = listed.json.referrals[0].signals;
      const key = {
        same_email: 'sameEmail',
        same_device: 'sameDevice',
        same_address: 'sameAddress',
        same_payout_address: 'samePayoutAddress',
      }[c.reason]!;
      expect(signals[key]).toBe(true);
    }
  });

  it('caps per referred person, per day and in all, and earns nothing after the reward window', async () => {
    try {
      // Per referred person: 15.00 at most.
      await putSettings({ capPerReferredCents: 1_500 });
      const a = await pair();
      await topUp(a.referred, 100);
      await topUp(a.referred, 100);
      await topUp(a.referred, 100);
      expect((await rewardsOf(a.referred.userId)).filter((r) => r.kind === 'referrer_share').map((r) => r.amountCents)).toEqual([970, 530]);

      // Per referrer and UTC day: 10.00; the next day has room again.
      await putSettings({ dailyCapCents: 1_000 });
      const referrer = await registerUser(t, {}, device());
      const code = await codeOf(referrer);
      const r1 = await registerUser(t, { referralCode: code }, device());
      const r2 = await registerUser(t, { referralCode: code }, device());
      const r3 = await registerUser(t, { referralCode: code }, device());
      await topUp(r1, 100);
      await topUp(r2, 100);
      expect((await rewardsOf(r2.userId)).filter((r) => r.kind === 'referrer_share').map((r) => r.amountCents)).toEqual([30]);
      t.app.referrals.now = () => new Date(Date.now() + DAY);
      await topUp(r3, 100);
      expect((await rewardsOf(r3.userId)).filter((r) => r.kind === 'referrer_share').map((r) => r.amountCents)).toEqual([970]);
      t.app.referrals.now = () => new Date();

      // In all: 12.00 per referrer.
      await putSettings({ lifetimeCapCents: 1_200 });
      const b = await registerUser(t, {}, device());
      const bCode = await codeOf(b);
      const b1 = await registerUser(t, { referralCode: bCode }, device());
      const b2 = await registerUser(t, { referralCode: bCode }, device());
      const b3 = await registerUser(t, { referralCode: bCode }, device());
      await topUp(b1, 100);
      await topUp(b2, 100);
      await topUp(b3, 100);
      const shares = async (u: User) => (await rewardsOf(u.userId)).filter((r) => r.kind === 'referrer_share').map((r) => r.amountCents);
      expect([await shares(b1), await shares(b2), await shares(b3)]).toEqual([[970], [230], []]);
      // Amount 0 after the caps: no reward row; the referral stays qualified, the welcome bonus is paid.
      expect((await referralOf(b3.userId)).status).toBe('qualified');

      // After the window (joined 91 days ago): nothing for the referrer.
      await putSettings({});
      const w = await pair();
      await t.database.db
        .update(referrals)
        .set({ joinedAt: new Date(Date.now() - 91 * DAY) })
        .where(eq(referrals.referredId, w.referred.userId));
      await topUp(w.referred, 100);
      expect((await rewardsOf(w.referred.userId)).filter((r) => r.kind === 'referrer_share')).toEqual([]);
    } finally {
      t.app.referrals.now = () => new Date();
      await putSettings({});
    }
  });

  it('lets an admin refuse or reverse with a note the referrer reads, audited; keeps the settings history; counts the weekly report', async () => {
    // What earlier tests left held is paid first, so the report's difference is this test's alone.
    await t.app.referrals.releaseDue({ all: true });
    const before = await call(t, 'GET', '/api/admin/referrals/report?weeks=1', { token: admin.token });
    expect(before.status).toBe(200);
    const week0 = before.json.weeks[0];

    // Refuse before the reward: the held share is cancelled.
    const a = await pair();
    await topUp(a.referred, 100);
    const ra = await referralOf(a.referred.userId);
    const refused = await call(t, 'POST', `/api/admin/referrals/${ra.id}/refuse`, { token: admin.token, body: { note: 'Same household' } });
    expect(refused.status).toBe(200);
    expect(refused.json.referral).toMatchObject({
      status: 'refused',
      refusalReason: 'refused_by_staff',
      refusalNote: 'Same household',
      heldCents: 0,
    });
    expect((await rewardsOf(a.referred.userId)).find((r) => r.kind === 'referrer_share')!.state).toBe('cancelled');
    await t.app.referrals.releaseDue({ all: true });
    expect(await balance(t, a.referrer)).toBe(0);
    const again = await call(t, 'POST', `/api/admin/referrals/${ra.id}/refuse`, { token: admin.token, body: { note: 'Again' } });
    expect(again.status).toBe(409);
    const mine = await call(t, 'GET', '/api/referrals', { token: a.referrer.token });
    expect(mine.json.referrals[0]).toMatchObject({ status: 'refused', refusalReason: 'refused_by_staff', refusalNote: 'Same household' });

    // Reverse after the reward: taken back from both.
    const b = await pair();
    await topUp(b.referred, 100);
    await t.app.referrals.releaseDue({ all: true });
    const rb = await referralOf(b.referred.userId);
    const cannotRefuse = await call(t, 'POST', `/api/admin/referrals/${rb.id}/refuse`, { token: admin.token, body: { note: 'Too late' } });
    expect(cannotRefuse.status).toBe(409);
    const reversed = await call(t, 'POST', `/api/admin/referrals/${rb.id}/reverse`, {
      token: admin.token,
      body: { note: 'Fake accounts' },
    });
    expect(reversed.status).toBe(200);
    expect(reversed.json.referral).toMatchObject({
      status: 'refused',
      refusalReason: 'reversed_by_staff',
      paidCents: 0,
      clawedBackCents: 970,
    });
    expect(await balance(t, b.referrer)).toBe(0);
    expect(await balance(t, b.referred)).toBe(97);
    const audit = await t.database.pool.query(
      `SELECT action, target_id, reason FROM audit_log WHERE target_type = 'referral' AND target_id IN ($1, $2) ORDER BY created_at`,
      [ra.id, rb.id],
    );
    expect(audit.rows.map((r: { action: string; target_id: string; reason: string }) => [r.action, r.target_id, r.reason])).toEqual([
      ['referral.refuse', ra.id, 'Same household'],
      ['referral.reverse', rb.id, 'Fake accounts'],
    ]);

    // The report counts this week's joins, refusals and money.
    const after = await call(t, 'GET', '/api/admin/referrals/report?weeks=1', { token: admin.token });
    const week1 = after.json.weeks[0];
    expect(week1.weekStart).toBe(week0.weekStart);
    expect(new Date(`${week1.weekStart}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(week1.joined - week0.joined).toBe(2);
    expect(week1.refused - week0.refused).toBe(2);
    expect(week1.paidCents - week0.paidCents).toBe(970);
    expect(week1.clawedBackCents - week0.clawedBackCents).toBe(970);
    expect(week1.welcomeBonusCents - week0.welcomeBonusCents).toBe(400);
    const csv = await fetch(`${t.url}/api/admin/referrals/report.csv?weeks=2`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('week_start,referrers,joined,qualified,refused,paid_credits,clawed_back_credits,welcome_bonus_credits');
    expect(lines).toHaveLength(3);
    expect(lines[2]!.startsWith(`${week1.weekStart},`)).toBe(true);

    // Settings: each change a row of the history, with who made it.
    const changed = await putSettings({ shareBasisPoints: 1_250 });
    await putSettings({});
    const settings = await call(t, 'GET', '/api/admin/referrals/settings', { token: admin.token });
    expect(settings.json.history.length, JSON.stringify(settings.json)).toBeGreaterThanOrEqual(2);
    expect(settings.json.settings).toEqual(DEFAULT_REFERRAL_SETTINGS);
    expect(settings.json.history[1].settings.shareBasisPoints).toBe(1_250);
    expect(settings.json.history[0].changedBy).toEqual({ userId: admin.userId, username: admin.username });
    expect(changed.settings.shareBasisPoints).toBe(1_250);
  });

  it('shows a user only their own referrals, and the staff routes to admins only', async () => {
    const { referrer, referred } = await pair();
    const other = await registerUser(t, {}, device());
    const theirs = await call(t, 'GET', '/api/referrals', { token: other.token });
    expect(theirs.json).toMatchObject({ referrals: [], total: 0 });
    expect((await call(t, 'GET', '/api/referrals', { token: referrer.token })).json.total).toBe(1);
    expect((await call(t, 'GET', '/api/referrals', { token: referred.token })).json.total).toBe(0);
    expect((await call(t, 'GET', '/api/referrals')).status).toBe(401);
    const support = await registerUser(t, {}, device());
    await setRole(t.database.db, support.userId, 'support');
    const id = (await referralOf(referred.userId)).id;
    for (const who of [referrer, support]) {
      for (const [method, path, body] of [
        ['GET', '/api/admin/referrals', undefined],
        ['GET', '/api/admin/referrals/report', undefined],
        ['GET', '/api/admin/referrals/report.csv', undefined],
        ['GET', '/api/admin/referrals/settings', undefined],
        ['PUT', '/api/admin/referrals/settings', DEFAULT_REFERRAL_SETTINGS],
        ['POST', `/api/admin/referrals/${id}/refuse`, { note: 'not mine' }],
        ['POST', `/api/admin/referrals/${id}/reverse`, { note: 'not mine' }],
      ] as const) {
        expect((await call(t, method, path, { token: who.token, body })).status, `${method} ${path}`).toBe(403);
      }
    }
    expect((await referralOf(referred.userId)).status).toBe('joined');
  });

  it('refuses bad input: wrong JSON types and settings out of range change nothing', async () => {
    const before = await call(t, 'GET', '/api/admin/referrals/settings', { token: admin.token });
    for (const body of [
      { ...DEFAULT_REFERRAL_SETTINGS, shareBasisPoints: '1000' },
      { ...DEFAULT_REFERRAL_SETTINGS, shareBasisPoints: 5_001 },
      { ...DEFAULT_REFERRAL_SETTINGS, shareBasisPoints: 10.5 },
      { ...DEFAULT_REFERRAL_SETTINGS, rewardDays: 0 },
      { ...DEFAULT_REFERRAL_SETTINGS, holdDays: 366 },
      { ...DEFAULT_REFERRAL_SETTINGS, dailyCapCents: -1 },
      { ...DEFAULT_REFERRAL_SETTINGS, welcomeBonusCents: null },
      { shareBasisPoints: 1000 },
      [],
      'settings',
    ]) {
      const res = await call(t, 'PUT', '/api/admin/referrals/settings', { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const after = await call(t, 'GET', '/api/admin/referrals/settings', { token: admin.token });
    expect(after.json.history).toHaveLength(before.json.history.length);
    const { referred } = await pair();
    const id = (await referralOf(referred.userId)).id;
    for (const body of [{ note: 'x' }, { note: 42 }, {}, { note: 'y'.repeat(501) }]) {
      expect((await call(t, 'POST', `/api/admin/referrals/${id}/refuse`, { token: admin.token, body })).status, JSON.stringify(body)).toBe(
        400,
      );
    }
    expect(
      (await call(t, 'POST', '/api/admin/referrals/not-a-uuid/refuse', { token: admin.token, body: { note: 'why not' } })).status,
    ).toBe(400);
    expect(
      (
        await call(t, 'POST', '/api/admin/referrals/00000000-0000-4000-8000-000000000000/refuse', {
          token: admin.token,
          body: { note: 'why not' },
        })
      ).status,
    ).toBe(404);
    for (const q of ['?pageSize=0', '?page=abc', '?status=paid', '?weeks=0']) {
      const path = q === '?weeks=0' ? `/api/admin/referrals/report${q}` : `/api/admin/referrals${q}`;
      expect((await call(t, 'GET', path, { token: admin.token })).status, q).toBe(400);
    }
    expect((await call(t, 'GET', '/api/referrals?pageSize=1000', { token: referred.token })).status).toBe(400);
    expect((await referralOf(referred.userId)).status).toBe('joined');
  });
});

describe('referral rules', () => {
  it('masks names and normalises mailboxes', () => {
    expect(maskName('alice')).toBe('al•••e');
    expect(maskName('bob')).toBe('b•••');
    expect(maskName('abcd')).toBe('ab•••d');
    expect(normaliseEmail('A.Lice+promo@GoogleMail.com')).toBe('alice@gmail.com');
    expect(normaliseEmail('a.lice+x@example.com')).toBe('a.lice@example.com');
    expect(refusalReasonOf('u1', 'u1', { sameEmail: false, sameDevice: false, sameAddress: false, samePayoutAddress: false })).toBe(
      'same_account',
    );
    expect(refusalReasonOf('u1', 'u2', { sameEmail: false, sameDevice: true, sameAddress: true, samePayoutAddress: false })).toBe(
      'same_device',
    );
    expect(refusalReasonOf('u1', 'u2', { sameEmail: false, sameDevice: false, sameAddress: false, samePayoutAddress: false })).toBeNull();
  });
});
