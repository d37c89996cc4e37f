import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, guestCookie, guestHeaders, registerUser, startGuest } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { EXCHANGE_SYNC_JOB } from './exchange.module.js';
import { exchanges } from './exchange.tables.js';

type Json = Record<string, unknown>;

const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const XRP_ADDRESS = 'rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv';
/** 0.01 BTC at the sandbox's 65,000 USD is 650 USD: a 0.5 % reward of 3.25 credits. */
const SWAP = { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: ETH_ADDRESS };
const REWARD = 3.25;

interface Caller {
  token: string;
  guestId?: string;
}

function auth(caller: Caller) {
  return { token: caller.token, headers: caller.guestId ? guestHeaders({ guestId: caller.guestId }) : {} };
}

async function createExchange(t: TestApp, caller: Caller, body: Json = SWAP) {
  return call(t, 'POST', '/api/exchange/exchanges', { ...auth(caller), body });
}

/** Moves the sandbox exchange as the provider would; by default the sandbox nudges the app to sync. */
async function control(t: TestApp, providerExchangeId: string, body: Json) {
  const res = await call(t, 'POST', `/sandbox/swap/exchanges/${providerExchangeId}/status`, { body });
  expect(res.status).toBe(200);
  return res.json as { exchange: Json; synced: string | null };
}

async function balance(t: TestApp, user: { token: string; userId: string }): Promise<number> {
  const res = await call(t, 'GET', `/api/users/${user.userId}/credits`, { token: user.token });
  expect(res.status).toBe(200);
  return res.json.credits as number;
}

async function rewardEntries(t: TestApp, token: string): Promise<Json[]> {
  const res = await call(t, 'GET', '/api/credits/history?pageSize=100', { token });
  expect(res.status).toBe(200);
  return (res.json.entries as Json[]).filter((e) => e.kind === 'reward');
}

async function guestSwap(t: TestApp) {
  const guest = await startGuest(t);
  const res = await createExchange(t, guest);
  expect(res.status).toBe(201);
  const exchange = res.json.data.exchange as Json & { _id: string; providerExchangeId: string };
  const rewards = res.json.data.rewards as { claimCode: string; potentialAmount: number; claimDeadline: string };
  return {
    guest,
    exchange,
    rewards,
    claim: { exchangeId: exchange._id, claimCode: rewards.claimCode, potentialRewards: rewards.potentialAmount },
  };
}

async function claim(t: TestApp, user: { token: string; userId: string }, claims: Json[], userId = user.userId) {
  return call(t, 'POST', '/api/exchange/claim-guest-rewards', { token: user.token, body: { claims, userId } });
}

describe.each(enginesFor('database'))('exchange and guest rewards on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('documents every exchange call in /api/docs', async () => {
    const doc = (await call(t, 'GET', '/api/docs')).json as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/exchange/currencies',
        '/api/exchange/estimate',
        '/api/exchange/exchanges',
        '/api/exchange/exchanges/{id}',
        '/api/exchange/guest-rewards-status',
        '/api/exchange/claim-guest-rewards',
      ]),
    );
    expect(Object.keys(doc.paths['/api/exchange/exchanges']!)).toEqual(expect.arrayContaining(['get', 'post']));
  });

  it('lists the currencies whose payout addresses can be checked, with their memo names', async () => {
    const res = await call(t, 'GET', '/api/exchange/currencies');
    expect(res.status).toBe(200);
    const currencies = res.json.currencies as Json[];
    const tickers = currencies.map((c) => c.ticker);
    expect(tickers).toEqual(expect.arrayContaining(['btc', 'eth', 'ltc', 'usdterc20', 'xrp', 'xlm']));
    // The sandbox lists Monero too; we cannot check its addresses, so it is not offered.
    expect(tickers).not.toContain('xmr');
    expect(currencies.find((c) => c.ticker === 'xrp')).toMatchObject({ hasExternalId: true, externalIdName: 'Destination tag' });
    expect(currencies.find((c) => c.ticker === 'xlm')).toMatchObject({ hasExternalId: true, externalIdName: 'Memo' });
    expect(currencies.find((c) => c.ticker === 'btc')).toMatchObject({ name: 'Bitcoin', hasExternalId: false, externalIdName: null });
  });

  it('estimates an exchange with its minimum, USD value and the reward it earns', async () => {
    const res = await call(t, 'GET', '/api/exchange/estimate?from=btc&to=eth&amount=0.01');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      from: 'btc',
      to: 'eth',
      amount: 0.01,
      estimatedAmount: '0.203125',
      minAmount: '0.00015385',
      usdValue: 650,
      reward: { percent: 0.5, amount: REWARD },
    });
    const same = await call(t, 'GET', '/api/exchange/estimate?from=btc&to=btc&amount=1');
    expect(same.status).toBe(422);
    const bad = await call(t, 'GET', '/api/exchange/estimate?from=btc&to=eth&amount=-1');
    expect(bad.status).toBe(400);
  });

  it("credits a user's reward once when the exchange finishes, however often it is synced", async () => {
    const user = await registerUser(t);
    const res = await createExchange(t, user);
    expect(res.status).toBe(201);
    expect(res.json.success).toBe(true);
    const exchange = res.json.data.exchange as Json & { _id: string; providerExchangeId: string };
    expect(res.json.data.rewards).toEqual({ potentialAmount: REWARD, percent: 0.5, mode: 'direct' });
    expect(exchange).toMatchObject({
      status: 'waiting',
      from: 'btc',
      to: 'eth',
      amount: '0.01',
      payoutAddress: ETH_ADDRESS,
      usdValue: 650,
      rewardAmount: REWARD,
    });
    expect(exchange.payinAddress).toMatch(/^bc1q/);

    for (const step of ['confirming', 'exchanging', 'sending']) {
      expect((await control(t, exchange.providerExchangeId, { status: step })).synced).toBe(step);
      const got = await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, { token: user.token });
      expect(got.json.exchange.status).toBe(step);
      expect(await balance(t, user)).toBe(0);
    }
    expect((await control(t, exchange.providerExchangeId, { status: 'finished' })).synced).toBe('finished');
    expect(await balance(t, user)).toBe(REWARD);

    // The provider repeats itself, the poller runs, the owner reads: nothing more is credited.
    await control(t, exchange.providerExchangeId, { status: 'finished' });
    await control(t, exchange.providerExchangeId, { status: 'sending' });
    await t.app.jobs.send(EXCHANGE_SYNC_JOB, { providerExchangeId: exchange.providerExchangeId });
    await t.database.db.update(exchanges).set({ lastCheckedAt: null }).where(eq(exchanges.id, exchange._id));
    const got = await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, { token: user.token });
    expect(got.json.exchange).toMatchObject({ status: 'finished', rewardCredited: true, amountSent: '0.01', amountReceived: '0.203125' });
    await t.app.jobs.drain(); // the sync job, and every job it queued, has run: a second credit would be there by now
    expect(await balance(t, user)).toBe(REWARD);
    const entries = await rewardEntries(t, user.token);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ amountCents: 325, reference: `reward:${exchange._id}` });
    // Told once in the app, linking to the exchange itself.
    const told = (await call(t, 'GET', '/api/notifications', { token: user.token })).json.notifications.filter(
      (n: { event: string }) => n.event === 'exchange.finished',
    );
    expect(told).toEqual([expect.objectContaining({ title: 'Exchange finished', link: `/dashboard/exchanges/${exchange._id}` })]);
  });

  it('finishes an exchange through the status poller when nothing nudges the app', async () => {
    const user = await registerUser(t);
    const exchange = (await createExchange(t, user)).json.data.exchange as Json & { _id: string; providerExchangeId: string };
    expect((await control(t, exchange.providerExchangeId, { status: 'finished', sync: false })).synced).toBeNull();
    expect(await balance(t, user)).toBe(0);
    await t.app.jobs.send(EXCHANGE_SYNC_JOB);
    await t.app.jobs.drain(); // the sync job, and every job it queued, has run
    expect(await balance(t, user)).toBe(REWARD);
  });

  it('earns less when less than agreed was sent', async () => {
    const user = await registerUser(t);
    const exchange = (await createExchange(t, user)).json.data.exchange as Json & { providerExchangeId: string };
    await control(t, exchange.providerExchangeId, { status: 'finished', amountSend: 0.005 });
    expect(await balance(t, user)).toBe(1.62);
  });

  it('refuses invalid payout addresses and memos, creating nothing', async () => {
    const user = await registerUser(t);
    const cases: [Json, string][] = [
      [{ ...SWAP, payoutAddress: ETH_ADDRESS.slice(0, -1) + 'F' }, 'payoutAddress'],
      [{ ...SWAP, to: 'btc', from: 'eth', amount: 1, payoutAddress: ETH_ADDRESS }, 'payoutAddress'],
      [{ ...SWAP, to: 'btc', from: 'eth', amount: 1, payoutAddress: BTC_ADDRESS.slice(0, -1) + 'x' }, 'payoutAddress'],
      [{ ...SWAP, to: 'xrp', payoutAddress: XRP_ADDRESS, payoutExtraId: 'not a number' }, 'payoutExtraId'],
      [{ ...SWAP, payoutExtraId: '12345' }, 'payoutExtraId'],
      [{ ...SWAP, amount: 0.0001 }, 'amount'],
    ];
    for (const [body, field] of cases) {
      const res = await createExchange(t, user, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.json.details.fields)).toContain(field);
    }
    const empty = await createExchange(t, user, { ...SWAP, payoutAddress: '' });
    expect(empty.status).toBe(400);
    // A good XRP address with its destination tag is accepted.
    const good = await createExchange(t, user, { ...SWAP, to: 'xrp', payoutAddress: XRP_ADDRESS, payoutExtraId: '4294967295' });
    expect(good.status).toBe(201);
    expect(good.json.data.exchange.payoutExtraId).toBe('4294967295');
    expect((await createExchange(t, user, { from: 'eth', to: 'btc', amount: 1, payoutAddress: BTC_ADDRESS })).status).toBe(201);
    const mine = await call(t, 'GET', '/api/exchange/exchanges', { token: user.token });
    expect(mine.json.total).toBe(2);
  });

  it("answers 404 for someone else's exchange and lists only one's own", async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    const guest = await startGuest(t);
    const exchange = (await createExchange(t, owner)).json.data.exchange as Json & { _id: string };
    expect((await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, { token: other.token })).status).toBe(404);
    expect((await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, auth(guest))).status).toBe(404);
    expect((await call(t, 'GET', '/api/exchange/exchanges/not-an-id', { token: other.token })).status).toBe(404);
    expect((await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`)).status).toBe(401);
    expect((await call(t, 'GET', '/api/exchange/exchanges', { token: other.token })).json.total).toBe(0);
    const mine = await call(t, 'GET', '/api/exchange/exchanges', { token: owner.token });
    expect((mine.json.exchanges as Json[]).map((e) => e._id)).toEqual([exchange._id]);
    expect((await createExchange(t, { token: '' })).status).toBe(401);
  });

  it('redeems a guest claim once, only when finished, only with the right code and only for the caller', async () => {
    const { guest, exchange, rewards, claim: good } = await guestSwap(t);
    expect(rewards.claimCode).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(rewards.potentialAmount).toBe(REWARD);
    expect(Date.parse(rewards.claimDeadline) - Date.now()).toBeGreaterThan(719 * 3600_000);
    const asGuest = await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, auth(guest));
    expect(asGuest.json.exchange).toMatchObject({ rewardMode: 'claim', rewardCredited: false });
    const [row] = await t.database.db.select().from(exchanges).where(eq(exchanges.id, exchange._id));
    expect(row!.claimCodeHash).not.toContain(rewards.claimCode);

    const status = await call(t, 'POST', '/api/exchange/guest-rewards-status', { body: { claims: [good] } });
    expect(status.json).toEqual({
      success: true,
      data: { totalPotentialRewards: REWARD, claims: [{ exchangeId: exchange._id, valid: true }] },
    });

    const user = await registerUser(t);
    const other = await registerUser(t);
    await control(t, exchange.providerExchangeId, { status: 'finished' });
    const wrong = await claim(t, user, [{ ...good, claimCode: 'x'.repeat(32) }]);
    expect(wrong.json.data).toEqual({ totalCredited: 0, results: [{ exchangeId: exchange._id, claimed: false }] });
    const forSomeoneElse = await claim(t, user, [good], other.userId);
    expect(forSomeoneElse.status).toBe(403);
    expect(forSomeoneElse.json.error).toBeTruthy();
    const byGuest = await call(t, 'POST', '/api/exchange/claim-guest-rewards', {
      ...auth(guest),
      body: { claims: [good], userId: guest.guestId },
    });
    expect(byGuest.status).toBe(403);
    expect(await balance(t, user)).toBe(0);
    expect(await balance(t, other)).toBe(0);

    const redeemed = await claim(t, user, [good]);
    expect(redeemed.json).toEqual({
      success: true,
      data: { totalCredited: REWARD, results: [{ exchangeId: exchange._id, claimed: true }] },
    });
    expect(await balance(t, user)).toBe(REWARD);

    const again = await claim(t, user, [good, good]);
    expect(again.json.data).toEqual({ totalCredited: 0, results: [{ exchangeId: exchange._id, claimed: false }] });
    const byOther = await claim(t, other, [good]);
    expect(byOther.json.data.totalCredited).toBe(0);
    expect(await balance(t, user)).toBe(REWARD);
    expect(await balance(t, other)).toBe(0);
    const after = await call(t, 'POST', '/api/exchange/guest-rewards-status', { token: user.token, body: { claims: [good] } });
    expect(after.json.data).toEqual({ totalPotentialRewards: 0, claims: [{ exchangeId: exchange._id, valid: false }] });
    expect(await rewardEntries(t, user.token)).toHaveLength(1);
  });

  it('gives an unfinished claim to the first user who redeems it, credited once when the exchange finishes', async () => {
    const { guest, exchange, claim: good } = await guestSwap(t);
    const user = await registerUser(t);
    const other = await registerUser(t);
    // Not finished: nothing is credited yet, but the claim is taken (the browser clears it after sign-in).
    const early = await claim(t, user, [good]);
    expect(early.json).toEqual({ success: true, data: { totalCredited: 0, results: [{ exchangeId: exchange._id, claimed: true }] } });
    expect(await balance(t, user)).toBe(0);
    const taken = await claim(t, other, [good]);
    expect(taken.json.data).toEqual({ totalCredited: 0, results: [{ exchangeId: exchange._id, claimed: false }] });
    // It is the user's exchange now, no longer the guest's.
    expect((await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, { token: user.token })).status).toBe(200);
    expect((await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, auth(guest))).status).toBe(404);

    await control(t, exchange.providerExchangeId, { status: 'finished' });
    await control(t, exchange.providerExchangeId, { status: 'finished' });
    expect(await balance(t, user)).toBe(REWARD);
    expect((await claim(t, user, [good])).json.data.totalCredited).toBe(0);
    expect((await claim(t, other, [good])).json.data.totalCredited).toBe(0);
    expect(await balance(t, user)).toBe(REWARD);
    expect(await balance(t, other)).toBe(0);
    expect(await rewardEntries(t, user.token)).toHaveLength(1);
  });

  it('gives an unfinished claim raced by two users to exactly one of them', async () => {
    const { exchange, claim: good } = await guestSwap(t);
    const a = await registerUser(t);
    const b = await registerUser(t);
    const answers = await Promise.all([claim(t, a, [good]), claim(t, b, [good]), claim(t, a, [good])]);
    expect(answers.map((r) => r.json.data.results[0].claimed as boolean).filter(Boolean)).toHaveLength(1);
    await control(t, exchange.providerExchangeId, { status: 'finished' });
    expect((await balance(t, a)) + (await balance(t, b))).toBe(REWARD);
  });

  it("credits a linked account's finished claim that was never redeemed, once, after the grace period", async () => {
    const linked = await guestSwap(t);
    await control(t, linked.exchange.providerExchangeId, { status: 'finished' });
    const user = await registerUser(t, { guestId: linked.guest.guestId }, guestCookie(linked.guest));
    // A guest who never signed in keeps a claim only their code can redeem.
    const unlinked = await guestSwap(t);
    await control(t, unlinked.exchange.providerExchangeId, { status: 'finished' });

    // Linked to the account, the claim is the account's alone, code or no code.
    const stranger = await registerUser(t);
    const strangerStatus = await call(t, 'POST', '/api/exchange/guest-rewards-status', {
      token: stranger.token,
      body: { claims: [linked.claim] },
    });
    expect(strangerStatus.json.data).toEqual({ totalPotentialRewards: 0, claims: [{ exchangeId: linked.exchange._id, valid: false }] });
    expect((await claim(t, stranger, [linked.claim])).json.data.totalCredited).toBe(0);

    // Within the grace period the browser's redemption has the claim to itself.
    await t.app.jobs.send(EXCHANGE_SYNC_JOB);
    await t.app.jobs.drain(); // the sync job has run
    expect(await balance(t, user)).toBe(0);

    await t.database.db
      .update(exchanges)
      .set({ updatedAt: sql`now() - interval '2 hours'` })
      .where(inArray(exchanges.id, [linked.exchange._id, unlinked.exchange._id]));
    await t.app.jobs.send(EXCHANGE_SYNC_JOB);
    await t.app.jobs.drain(); // the sync job, and every job it queued, has run
    expect(await balance(t, user)).toBe(REWARD);

    await t.app.jobs.send(EXCHANGE_SYNC_JOB);
    await t.app.jobs.drain();
    expect((await claim(t, user, [linked.claim])).json.data.totalCredited).toBe(0);
    expect(await balance(t, user)).toBe(REWARD);
    expect(await rewardEntries(t, user.token)).toHaveLength(1);
    const [still] = await t.database.db.select().from(exchanges).where(eq(exchanges.id, unlinked.exchange._id));
    expect(still!.rewardCreditedAt).toBeNull();
    expect(await balance(t, stranger)).toBe(0);
  });

  it('gives a claim raced by two users to exactly one of them', async () => {
    const { exchange, claim: good } = await guestSwap(t);
    await control(t, exchange.providerExchangeId, { status: 'finished' });
    const a = await registerUser(t);
    const b = await registerUser(t);
    // Two users, and one of them twice at once.
    const answers = await Promise.all([claim(t, a, [good]), claim(t, b, [good]), claim(t, a, [good])]);
    const claimed = answers.map((r) => r.json.data.results[0].claimed as boolean);
    expect(claimed.filter(Boolean)).toHaveLength(1);
    expect((await balance(t, a)) + (await balance(t, b))).toBe(REWARD);
  });

  it('refuses an expired claim and a failed exchange', async () => {
    const expired = await guestSwap(t);
    await control(t, expired.exchange.providerExchangeId, { status: 'finished' });
    await t.database.db
      .update(exchanges)
      .set({ claimDeadline: sql`now() - interval '1 minute'` })
      .where(eq(exchanges.id, expired.exchange._id));
    const failed = await guestSwap(t);
    await control(t, failed.exchange.providerExchangeId, { status: 'failed' });
    const claims = [expired.claim, failed.claim];

    const status = await call(t, 'POST', '/api/exchange/guest-rewards-status', { body: { claims } });
    expect(status.json.data).toEqual({
      totalPotentialRewards: 0,
      claims: [
        { exchangeId: expired.exchange._id, valid: false },
        { exchangeId: failed.exchange._id, valid: false },
      ],
    });
    const user = await registerUser(t);
    const res = await claim(t, user, claims);
    expect(res.json.data.totalCredited).toBe(0);
    expect(await balance(t, user)).toBe(0);
  });

  it("moves a guest's exchanges to the account it registers: unfinished ones are then credited directly", async () => {
    const unfinished = await guestSwap(t);
    const guest = unfinished.guest;
    const finishedRes = await createExchange(t, guest);
    const finished = finishedRes.json.data.exchange as Json & { _id: string; providerExchangeId: string };
    await control(t, finished.providerExchangeId, { status: 'finished' });

    const user = await registerUser(t, { guestId: guest.guestId }, guestCookie(guest));
    const mine = await call(t, 'GET', '/api/exchange/exchanges', { token: user.token });
    expect(mine.json.total).toBe(2);
    // The finished one stays a claim for the browser to redeem; the other is the account's own now.
    const status = await call(t, 'POST', '/api/exchange/guest-rewards-status', {
      token: user.token,
      body: { claims: [unfinished.claim, { exchangeId: finished._id, claimCode: finishedRes.json.data.rewards.claimCode }] },
    });
    expect(status.json.data).toEqual({
      totalPotentialRewards: REWARD,
      claims: [
        { exchangeId: unfinished.exchange._id, valid: false },
        { exchangeId: finished._id, valid: true },
      ],
    });
    await control(t, unfinished.exchange.providerExchangeId, { status: 'finished' });
    expect(await balance(t, user)).toBe(REWARD);

    // Credited directly, its claim code redeems nothing more, for the account or anyone else.
    const other = await registerUser(t);
    expect((await claim(t, user, [unfinished.claim])).json.data).toEqual({
      totalCredited: 0,
      results: [{ exchangeId: unfinished.exchange._id, claimed: false }],
    });
    expect((await claim(t, other, [unfinished.claim])).json.data.totalCredited).toBe(0);
    const finishedClaim = { exchangeId: finished._id, claimCode: finishedRes.json.data.rewards.claimCode };
    expect((await claim(t, user, [unfinished.claim, finishedClaim])).json.data.totalCredited).toBe(REWARD);
    expect(await balance(t, user)).toBe(2 * REWARD);
    expect(await balance(t, other)).toBe(0);
    expect(await rewardEntries(t, user.token)).toHaveLength(2);
  });
});

describe.each(enginesFor('database'))('guest reward claims are throttled per claim and per account on %s', (engine) => {
  let t: TestApp;
  /** Everyone calls from one shared address (the app trusts X-Forwarded-For here): it must not matter. */
  const sharedIp = { 'x-forwarded-for': '203.0.113.7' };
  const counter = async (key: string) => {
    const result = await t.database.db.execute<{ count: number }>(sql`SELECT count FROM rate_limit_counters WHERE key = ${key}`);
    return result.rows[0] ? Number(result.rows[0].count) : 0;
  };
  const claimCounter = (exchangeId: string) => counter(`reward-claim-fail:claim:${exchangeId}`);
  const accountCounter = (userId: string) => counter(`reward-claim-fail:account:user:${userId}`);
  let registered = 0;
  /** Registration is limited per address (rate limits are on here): each account registers from its own. */
  const newUser = (overrides: Json = {}, headers: Record<string, string> = {}) =>
    registerUser(t, overrides, { ...headers, 'x-forwarded-for': `198.51.100.${++registered}` });
  const status = (claims: Json[], token?: string) =>
    call(t, 'POST', '/api/exchange/guest-rewards-status', { headers: sharedIp, body: { claims }, ...(token ? { token } : {}) });
  beforeAll(async () => {
    t = await startTestApp(engine, { TRUST_PROXY: '1' });
  });
  afterEach(async () => {
    // Balance = sum of entries, never negative, nothing credited twice (docs/product.md#credits).
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('checks no more than 10 wrong codes for one claim when 30 arrive at once, from anyone', async () => {
    const { claim: good } = await guestSwap(t);
    // 30 callers (guests without an account, and users) at once, each with a wrong code for this claim.
    const users = await Promise.all(Array.from({ length: 5 }, () => newUser()));
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        status([{ ...good, claimCode: `wrong-code-${i}` }], i % 6 === 0 ? users[i / 6]!.token : undefined),
      ),
    );
    const codes = answers.map((r) => r.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    expect(answers.filter((r) => r.status === 200).every((r) => r.json.data.claims[0].valid === false)).toBe(true);
    expect(Number(answers.find((r) => r.status === 429)!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Refused attempts checked nothing and count nothing.
    expect(await claimCounter(good.exchangeId)).toBe(10);
    // The claim is held back now, even with the right code; other claims are not, from the same address.
    expect((await status([good])).status).toBe(429);
    const other = await guestSwap(t);
    const fine = await status([other.claim]);
    expect(fine.status).toBe(200);
    expect(fine.json.data.claims).toEqual([{ exchangeId: other.claim.exchangeId, valid: true }]);
  });

  it('checks no more than 20 wrong codes from one account when they arrive at once, and holds back no other account on the address', async () => {
    const user = await newUser();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => status([{ exchangeId: randomUUID(), claimCode: 'wrong-code' }], user.token)),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(20);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(10);
    expect(await accountCounter(user.userId)).toBe(20);
    // One call cannot try more either: the account is used up, the first claim is refused.
    const { claim: good } = await guestSwap(t);
    expect((await status([good], user.token)).status).toBe(429);
    expect(await claimCounter(good.exchangeId)).toBe(0);
    // Another account behind the same address is not held back.
    const neighbour = await newUser();
    const res = await status([good], neighbour.token);
    expect(res.status).toBe(200);
    expect(res.json.data.claims[0].valid).toBe(true);
  });

  it('lets one call try no more wrong codes than the account may; what was credited before stays credited', async () => {
    const user = await newUser();
    const unknown = Array.from({ length: 30 }, () => ({ exchangeId: randomUUID(), claimCode: 'wrong-code' }));
    const first = await guestSwap(t);
    const last = await guestSwap(t);
    await control(t, first.exchange.providerExchangeId, { status: 'finished' });
    await control(t, last.exchange.providerExchangeId, { status: 'finished' });
    const res = await call(t, 'POST', '/api/exchange/claim-guest-rewards', {
      token: user.token,
      headers: sharedIp,
      body: { userId: user.userId, claims: [first.claim, ...unknown, last.claim] },
    });
    expect(res.status).toBe(200);
    expect(res.json.data.totalCredited).toBe(REWARD);
    expect(res.json.data.results).toHaveLength(32);
    expect(res.json.data.results[0]).toEqual({ exchangeId: first.exchange._id, claimed: true });
    expect(res.json.data.results[31]).toEqual({ exchangeId: last.exchange._id, claimed: false });
    expect(await accountCounter(user.userId)).toBe(20);
    expect(await balance(t, user)).toBe(REWARD);
    // The account is held back now: nothing claimed, so a 429.
    const again = await call(t, 'POST', '/api/exchange/claim-guest-rewards', {
      token: user.token,
      headers: sharedIp,
      body: { userId: user.userId, claims: [last.claim] },
    });
    expect(again.status).toBe(429);
    expect(await balance(t, user)).toBe(REWARD);
  });

  it('redeems a claim once and checks no more than the limit when wrong and right codes race', async () => {
    const { claim: good, exchange } = await guestSwap(t);
    await control(t, exchange.providerExchangeId, { status: 'finished' });
    const users = await Promise.all(Array.from({ length: 4 }, () => newUser()));
    const owner = users[0]!;
    const calls = [
      ...Array.from({ length: 24 }, (_, i) => {
        const u = users[i % 4]!;
        return call(t, 'POST', '/api/exchange/claim-guest-rewards', {
          token: u.token,
          headers: sharedIp,
          body: { userId: u.userId, claims: [{ ...good, claimCode: `wrong-${i}` }] },
        });
      }),
      ...Array.from({ length: 5 }, () =>
        call(t, 'POST', '/api/exchange/claim-guest-rewards', {
          token: owner.token,
          headers: sharedIp,
          body: { userId: owner.userId, claims: [good] },
        }),
      ),
    ];
    const answers = await Promise.all(calls);
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    // However the race went, no more than 10 wrong codes were checked, and the reward went out at most once.
    expect(await claimCounter(good.exchangeId)).toBeLessThanOrEqual(10);
    const credited = await Promise.all(users.map((u) => balance(t, u)));
    expect(credited.filter((b) => b > 0).length).toBeLessThanOrEqual(1);
    expect(credited.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(REWARD);
    expect(credited.slice(1).every((b) => b === 0)).toBe(true);
  });

  it('does not count a right code as a wrong one, nor one that is no longer a pending claim', async () => {
    const { guest, claim: good } = await guestSwap(t);
    const user = await newUser({ guestId: guest.guestId }, guestCookie(guest));
    for (let i = 0; i < 12; i++) expect((await status([good], user.token)).status).toBe(200);
    const redeem = await call(t, 'POST', '/api/exchange/claim-guest-rewards', {
      token: user.token,
      headers: sharedIp,
      body: { userId: user.userId, claims: [good] },
    });
    expect(redeem.json.data.totalCredited).toBe(0);
    expect(await claimCounter(good.exchangeId)).toBe(0);
    expect(await accountCounter(user.userId)).toBe(0);
    // A wrong code for the same exchange still counts, on the claim and on the account.
    await status([{ ...good, claimCode: 'wrong-code' }], user.token);
    expect(await claimCounter(good.exchangeId)).toBe(1);
    expect(await accountCounter(user.userId)).toBe(1);
  });
});
